import { fileNameFromDisposition } from '../domain/content-disposition.ts';
import ky, { isHTTPError } from 'ky';
import type * as z from 'zod/mini';
import { reportError } from './monitoring.ts';

/** The server answered with a status outside 2xx. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly url: string,
    /** The answer's JSON body when it had one (undefined otherwise): what the server said about the failure. */
    readonly body?: unknown,
  ) {
    super(`${url} answered ${status}`);
  }
}

/** The request never got an answer: offline, DNS, connection reset, or the time-out. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly url: string,
    options: { cause: unknown },
  ) {
    super(`${url} could not be reached`, options);
  }
}

/** The answer did not match the contract (its zod schema), or was not JSON at all. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  constructor(
    readonly url: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(
      `${url} answered an unexpected shape${issues.length ? `: ${issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}` : ''}`,
    );
  }
}

export const isUnauthorizedError = (error: unknown): boolean =>
  error instanceof HttpError && error.status === 401;
export const isNotFoundError = (error: unknown): boolean =>
  error instanceof HttpError && error.status === 404;

let accessToken: () => string | undefined = () => undefined;

/** The auth service tells the wrapper where the current access token is; every request carries it. */
export function setAccessTokenSource(source: () => string | undefined): void {
  accessToken = source;
}

/** The bearer header of the current session, for requests the ky wrapper cannot make (the live event stream). */
export function authorizationHeader(): Record<string, string> {
  const token = accessToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

const unauthorizedListeners = new Set<() => void>();

/** A 401 ends the session: every listener (the session machine) hears of it. */
function notifyUnauthorized(): void {
  unauthorizedListeners.forEach((listener) => listener());
}

/** AM §4/§8: a 401 on any API call ends the session. The session machine listens here. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  /** Leave the bearer token off (public configuration calls made before signing in). */
  anonymous?: boolean;
  /** Defaults to 30 s; downloads may need longer. */
  timeoutMs?: number;
  /** Defaults to JSON. */
  accept?: string;
}

const defaultTimeoutMs = 30_000;

type Method = 'get' | 'post' | 'put';

/** Sends one request with the bearer token; failures become our typed errors, reported once. */
async function send(
  method: Method,
  url: string,
  body: unknown,
  { anonymous = false, timeoutMs = defaultTimeoutMs, accept = 'application/json' }: RequestOptions,
): Promise<Response> {
  const headers = new Headers({ accept });
  const token = anonymous ? undefined : accessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  try {
    return await ky(url, { method, headers, json: body, retry: 0, timeout: timeoutMs });
  } catch (error) {
    throw await failure(error, url);
  }
}

async function request<T>(
  method: Method,
  url: string,
  schema: z.ZodMiniType<T>,
  body: unknown,
  options: RequestOptions,
): Promise<T> {
  const response = await send(method, url, body, options);
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw reported(new ResponseShapeError(url, []));
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw reported(new ResponseShapeError(url, parsed.error.issues));
  return parsed.data;
}

/** Turns what ky throws into our typed errors. A 401 goes to the session, not to error reporting. */
async function failure(error: unknown, url: string): Promise<Error> {
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 401) {
      unauthorizedListeners.forEach((listener) => listener());
      return new HttpError(status, url);
    }
    const body: unknown = await error.response.json().catch(() => undefined);
    return reported(new HttpError(status, url, body));
  }
  return reported(new NetworkError(url, { cause: error }));
}

/** The one place failures are reported, so each is reported exactly once. */
function reported<E extends Error>(error: E): E {
  reportError(error);
  return error;
}

/** GET `url` and parse the JSON answer with `schema`. */
export function getJson<T>(url: string, schema: z.ZodMiniType<T>, options: RequestOptions = {}): Promise<T> {
  return request('get', url, schema, undefined, options);
}

/** GET a file (CSV, PDF, octet-stream): its bytes and its content-disposition header, for a download. */
export async function getFile(
  url: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; contentDisposition: string | null }> {
  const response = await send('get', url, undefined, { accept: '*/*', ...options });
  return { blob: await response.blob(), contentDisposition: response.headers.get('content-disposition') };
}

/**
 * GET `url` with the session's bearer token (AM §7: every call carries it) and hand the answer to
 * the browser under the name content-disposition gives (`fallbackName` without one): an object URL
 * on a temporary anchor.
 */
export async function downloadFile(url: string, fallbackName: string, options: RequestOptions = {}): Promise<void> {
  const { blob, contentDisposition } = await getFile(url, options);
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileNameFromDisposition(contentDisposition, fallbackName);
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has started the download; the URL can go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** POST `body` as JSON to `url` and parse the JSON answer with `schema`. */
export function postJson<T>(
  url: string,
  body: unknown,
  schema: z.ZodMiniType<T>,
  options: RequestOptions = {},
): Promise<T> {
  return request('post', url, schema, body, options);
}

/** PUT `body` as JSON to `url` and parse the JSON answer with `schema`. */
export function putJson<T>(
  url: string,
  body: unknown,
  schema: z.ZodMiniType<T>,
  options: RequestOptions = {},
): Promise<T> {
  return request('put', url, schema, body, options);
}

/**
 * POST `form` as multipart to `url` with upload progress (bytes sent of the total) and parse the
 * JSON answer with `schema`. XMLHttpRequest, not ky: fetch reports no upload progress, and
 * streaming a request body needs HTTP/2 in Chromium. A refusal the server explains
 * (a 4xx other than 401 whose body has the answer's shape) is returned; failures are the wrapper's
 * typed errors, reported once, and a 401 ends the session.
 */
export function postFormWithProgress<T>(
  url: string,
  form: FormData,
  schema: z.ZodMiniType<T>,
  { onProgress, signal, timeoutMs = defaultTimeoutMs }: { onProgress: (sent: number, total: number) => void; signal?: AbortSignal; timeoutMs?: number },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.timeout = timeoutMs;
    request.setRequestHeader('accept', 'application/json');
    const token = accessToken();
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    const networkFailure = () => reject(reported(new NetworkError(url, { cause: new Error('upload failed') })));
    request.onerror = networkFailure;
    request.ontimeout = networkFailure;
    request.onabort = () => reject(new NetworkError(url, { cause: new Error('upload aborted') }));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.onload = () => {
      if (request.status === 401) {
        notifyUnauthorized();
        reject(new HttpError(401, url));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      const parsed = schema.safeParse(body);
      if (request.status >= 200 && request.status < 300) {
        if (parsed.success) resolve(parsed.data);
        else reject(reported(new ResponseShapeError(url, parsed.error.issues)));
        return;
      }
      if (request.status < 500 && parsed.success) resolve(parsed.data);
      else reject(reported(new HttpError(request.status, url, body)));
    };
    request.send(form);
  });
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';

const reported: unknown[] = [];
vi.mock('../../src/services/monitoring.ts', () => ({
  reportError: (error: unknown) => reported.push(error),
}));

const {
  getJson,
  getFile,
  postJson,
  onUnauthorized,
  setAccessTokenSource,
  HttpError,
  NetworkError,
  ResponseShapeError,
  isUnauthorizedError,
} = await import('../../src/services/http.ts');

const PingSchema = z.object({ Success: z.boolean() });
const url = 'http://portal.test/api/account/ping';
const fetchMock = vi.fn<typeof fetch>();

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  reported.length = 0;
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  setAccessTokenSource(() => 'token-123');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const sentRequest = (): Request => {
  const request = fetchMock.mock.calls[0]?.[0];
  if (!(request instanceof Request)) throw new Error('ky did not send a Request');
  return request;
};

describe('http wrapper', () => {
  it('sends the bearer token and returns the parsed answer', async () => {
    fetchMock.mockResolvedValue(json({ Success: true, extra: 'dropped' }));
    await expect(getJson(url, PingSchema)).resolves.toEqual({ Success: true });
    expect(sentRequest().headers.get('authorization')).toBe('Bearer token-123');
  });

  it('leaves the token off anonymous calls', async () => {
    fetchMock.mockResolvedValue(json({ Success: true }));
    await getJson(url, PingSchema, { anonymous: true });
    expect(sentRequest().headers.has('authorization')).toBe(false);
  });

  it('posts the body as JSON', async () => {
    let body: unknown;
    fetchMock.mockImplementation(async (input) => {
      if (input instanceof Request) body = await input.clone().json();
      return json({ Success: true });
    });
    await postJson(url, { oldPassword: 'a', newPassword: 'b' }, PingSchema);
    expect(sentRequest().method).toBe('POST');
    expect(body).toEqual({ oldPassword: 'a', newPassword: 'b' });
  });

  it('throws ResponseShapeError with the zod issues for an answer off the contract, reported once', async () => {
    fetchMock.mockResolvedValue(json({ Success: 'yes' }));
    const error = await getJson(url, PingSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error instanceof ResponseShapeError && error.issues[0]?.path).toEqual(['Success']);
    expect(reported).toEqual([error]);
  });

  it('throws ResponseShapeError for a body that is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<html>', { status: 200 }));
    await expect(getJson(url, PingSchema)).rejects.toBeInstanceOf(ResponseShapeError);
    expect(reported).toHaveLength(1);
  });

  it('throws HttpError with the status for a failure, reported once', async () => {
    fetchMock.mockResolvedValue(json({ statusCode: 500 }, 500));
    const error = await getJson(url, PingSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error instanceof HttpError && error.status).toBe(500);
    expect(reported).toEqual([error]);
  });

  it('throws NetworkError when the server cannot be reached, reported once', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await getJson(url, PingSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(reported).toEqual([error]);
  });

  it('tells the session about a 401 instead of reporting it', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    fetchMock.mockResolvedValue(json({ statusCode: 401 }, 401));
    const error = await getJson(url, PingSchema).catch((caught: unknown) => caught);
    expect(isUnauthorizedError(error)).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(reported).toEqual([]);
    stop();
    fetchMock.mockResolvedValue(json({ statusCode: 401 }, 401));
    await getJson(url, PingSchema).catch(() => {});
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('downloads a file with its content-disposition', async () => {
    fetchMock.mockResolvedValue(
      new Response('a,b\n', { headers: { 'content-disposition': 'attachment; filename="export.csv"' } }),
    );
    const file = await getFile('http://portal.test/api/application/export/all');
    expect(await file.blob.text()).toBe('a,b\n');
    expect(file.contentDisposition).toBe('attachment; filename="export.csv"');
  });
});

import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** One Server-Sent Events message as the stream sent it (`id` and `event` lines, `data` parsed as JSON). */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: unknown;
}

export interface OpenStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The next message with data, or undefined if none arrives within `ms`. */
  next(ms?: number): Promise<SseMessage | undefined>;
  /** Every `id:` line seen so far, last last (what a client would send as Last-Event-ID). */
  lastId(): string | undefined;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** The port of a test server listening on the loopback, started on first use. */
export async function listeningPort(app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/**
 * GET /api/events over a real connection (inject would wait for the end of a stream that does not
 * end), parsed as the SSE format says: messages end at a blank line, comment lines are skipped.
 */
export async function openStream(
  app: FastifyInstance,
  options: { token?: string; host?: string; lastEventId?: string; accept?: string } = {},
): Promise<OpenStream> {
  const port = await listeningPort(app);
  const headers: Record<string, string> = { host: options.host ?? 'localhost', accept: options.accept ?? 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/events', headers }, (res) => {
      const messages: SseMessage[] = [];
      const waiting: ((message: SseMessage) => void)[] = [];
      let buffer = '';
      let body = '';
      let lastId: string | undefined;
      let endedResolve = () => {};
      const ended = new Promise<void>((done) => (endedResolve = done));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const message: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') message.id = lastId = value;
            else if (field === 'event') message.event = value;
            else if (field === 'data') message.data = JSON.parse(value);
          }
          if (message.data === undefined) continue;
          const waiter = waiting.shift();
          if (waiter) waiter(message);
          else messages.push(message);
        }
      });
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        next: (ms = 2_000) =>
          new Promise((done) => {
            const queued = messages.shift();
            if (queued) return done(queued);
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(waiter), 1);
              done(undefined);
            }, ms);
            const waiter = (message: SseMessage) => {
              clearTimeout(timer);
              done(message);
            };
            waiting.push(waiter);
          }),
        lastId: () => lastId,
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

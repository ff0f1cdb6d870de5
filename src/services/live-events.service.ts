import { LiveEventSchema, type LiveEvent } from '../schemas/live-events.schema.ts';
import { authorizationHeader, onUnauthorized } from './http.ts';
import { reportError } from './monitoring.ts';

/** What the live event stream tells its holder (the live-updates machine). */
export interface LiveStreamHandlers {
  /** The server accepted the stream: events flow from now on. */
  opened(): void;
  /** Where the stream stands (an `id:` line): the Last-Event-ID to resume from. */
  position(id: string): void;
  event(id: string | undefined, event: LiveEvent): void;
  /** The connection broke or could not be made: connect again after a wait, from the last position. */
  dropped(): void;
  /** The server ended the stream as it does at the token's expiry: connect again now, with the renewed token. */
  ended(): void;
  /** 401 or 403 (the session ended, or the person may not listen): do not connect again. */
  refused(): void;
}

/** One SSE message block (lines up to a blank line), per the HTML standard's parsing rules. */
function parseBlock(block: string): { id: string | undefined; event: string | undefined; data: string | undefined } {
  let id: string | undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { id, event, data: data.length > 0 ? data.join('\n') : undefined };
}

/**
 * GET /api/events (docs/decisions/012-live-changes.md), read with fetch: EventSource cannot send
 * the Authorization header, and a token in the address would end up in logs. Returns the function
 * that closes the stream. A 401 on any call ends the stream too: the session is over.
 */
export function openLiveEvents(lastEventId: string | undefined, handlers: LiveStreamHandlers): () => void {
  const controller = new AbortController();
  let finished = false;
  const finish = (how: 'dropped' | 'refused' | 'ended') => {
    if (finished || controller.signal.aborted) return;
    finished = true;
    handlers[how]();
  };
  const stopListening = onUnauthorized(() => finish('refused'));
  void (async () => {
    let response: Response;
    try {
      response = await fetch('/api/events', {
        headers: {
          accept: 'text/event-stream',
          ...authorizationHeader(),
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
        cache: 'no-store',
        signal: controller.signal,
      });
    } catch {
      return finish('dropped');
    }
    if (response.status === 401 || response.status === 403) return finish('refused');
    if (!response.ok || !response.body) return finish('dropped');
    handlers.opened();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let broken = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end: RegExpExecArray | null;
        while ((end = /\r?\n\r?\n/.exec(buffer))) {
          const message = parseBlock(buffer.slice(0, end.index));
          buffer = buffer.slice(end.index + end[0].length);
          if (message.data === undefined) {
            if (message.id !== undefined) handlers.position(message.id);
            continue;
          }
          const parsed = LiveEventSchema.safeParse(JSON.parse(message.data));
          if (parsed.success) handlers.event(message.id, parsed.data);
          else reportError(new Error('The live event stream sent a message of an unexpected shape'), { issues: parsed.error.issues });
        }
      }
    } catch {
      // A reset connection or a message that is not JSON: connect again from the last position.
      broken = true;
    }
    finish(broken ? 'dropped' : 'ended');
  })();
  return () => {
    stopListening();
    controller.abort();
  };
}

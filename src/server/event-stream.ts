import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A comment line this often keeps proxies from closing an idle stream (and checks the caller again). */
export const HEARTBEAT_MS = 15_000;

/**
 * Bytes a stream may hold unsent: a client that stops reading is cut off
 * here instead of Node buffering every later event for it without bound.
 */
export const MAX_UNSENT_BYTES = 1 << 20;

/** One server-sent event. */
export interface ServerSentEvent {
  /** The event's type (`event:`); absent, the client's `message`. */
  event?: string | undefined;
  /** Its id (`id:`), which a reconnecting client sends back as Last-Event-ID. */
  id?: string | undefined;
  /** Its data; each line becomes a `data:` line. */
  data: string;
}

export interface EventStreamOptions {
  /** Headers the answer carries besides the stream's own (CORS, for one). */
  headers?: OutgoingHttpHeaders | undefined;
  /** Default HEARTBEAT_MS. */
  heartbeatMs?: number | undefined;
  /** Default MAX_UNSENT_BYTES. */
  maxUnsentBytes?: number | undefined;
  /** The stream ends after this long: it must not outlive what authorised it (a token's expiry). */
  endAfterMs?: number | undefined;
  /** Asked before each event and heartbeat; false ends the stream (a token revoked meanwhile). */
  stillAllowed?: (() => Promise<boolean>) | undefined;
  /** Called once when the stream ends, however it ends. */
  onClose?: (() => void) | undefined;
}

export interface EventStream {
  /** Sends an event after the ones before it, once `stillAllowed` says yes. */
  send(event: ServerSentEvent): void;
  /** Ends the stream. */
  end(): void;
}

/** A field value on one line: a line break in it would start a field of the sender's choosing. */
const oneLine = (value: string) => value.replace(/[\r\n]/g, ' ');

/** The text of one event on the wire. */
export function eventText({ event, id, data }: ServerSentEvent): string {
  const lines = [
    ...(event === undefined ? [] : [`event: ${oneLine(event)}`]),
    ...(id === undefined ? [] : [`id: ${oneLine(id)}`]),
    ...data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

/**
 * Opens a server-sent event stream on `response` (200, text/event-stream,
 * never cached or buffered by a proxy) and keeps it honest: events go out
 * one at a time in order, each after `stillAllowed`; a heartbeat comment
 * keeps it open; a client that stops reading is cut off past
 * `maxUnsentBytes`; and it ends at `endAfterMs`, or when either side goes.
 */
export function openEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  options: EventStreamOptions = {},
): EventStream {
  const maxUnsent = options.maxUnsentBytes ?? MAX_UNSENT_BYTES;
  let sending: Promise<void> = Promise.resolve();
  const write = (text: string) => {
    sending = sending.then(async () => {
      if (response.writableEnded) return;
      if (options.stillAllowed && !(await options.stillAllowed())) return void response.end();
      response.write(text);
      if (response.writableLength > maxUnsent) response.destroy();
    });
  };
  response.writeHead(200, {
    ...options.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  response.write(': connected\n\n');
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
  // setTimeout holds at most 2^31-1 ms; a longer-lived stream is cut at that and its client reconnects.
  const endAfter = Math.min(Math.max(0, options.endAfterMs ?? 2 ** 31 - 1), 2 ** 31 - 1);
  const expiry = setTimeout(() => response.end(), endAfter);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(expiry);
    options.onClose?.();
  };
  request.once('close', close);
  response.once('close', close);
  return { send: (event) => write(eventText(event)), end: () => response.end() };
}

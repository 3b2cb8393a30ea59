import type { ServerResponse } from 'node:http';
import { eventText, HEARTBEAT_MS, MAX_UNSENT_BYTES } from '../../server/event-stream.js';

/**
 * A server-sent event stream of MCP messages on Node's own response, as
 * Streamable HTTP carries them: each message one `message` event, written
 * at once and in order (the protocol classes send one at a time), a comment
 * every HEARTBEAT_MS so proxies keep an idle stream open, and a client that
 * stops reading cut off past MAX_UNSENT_BYTES instead of Node holding every
 * later message for it.
 */
export class McpEventStream {
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly response: ServerResponse,
    headers: Record<string, string>,
  ) {
    response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    // The head goes now: a client waits for it before it reads any event, and the first may be long in coming.
    response.flushHeaders();
    this.heartbeat = setInterval(() => this.write(': keepalive\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
    response.once('close', () => clearInterval(this.heartbeat));
  }

  /** Whether the stream can still carry a message: false once it has ended or its client has gone. */
  get open(): boolean {
    return !this.response.writableEnded && !this.response.destroyed;
  }

  /** Writes one message as an event. */
  send(message: unknown): void {
    this.write(eventText({ event: 'message', data: JSON.stringify(message) }));
  }

  /** Ends the stream after what it has written. */
  end(): void {
    clearInterval(this.heartbeat);
    if (this.open) this.response.end();
  }

  private write(text: string): void {
    if (!this.open) return;
    this.response.write(text);
    if (this.response.writableLength > MAX_UNSENT_BYTES) this.response.destroy();
  }
}

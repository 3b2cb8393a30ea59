import type { ServerResponse } from 'node:http';
import { McpEventStream } from './mcp-event-stream.js';
import { answerMcpError } from './mcp-http-answer.js';

/** A JSON-RPC request's id. */
export type McpRequestId = string | number;

/**
 * The answer to one POST that carried requests. It waits for each request's
 * answer and writes them as one JSON body (an array for a batch): the answer
 * every client must accept, and the cheapest to write. A message the server
 * sends within one of the requests before its answer (a progress or log
 * notification, a request to the client) cannot wait for the others: the
 * answer becomes an event stream then, carrying the answers already held,
 * that message, and every answer after it, and it ends once all are sent.
 */
export class McpPostAnswer {
  private readonly answers = new Map<McpRequestId, unknown>();
  private stream: McpEventStream | undefined;

  constructor(
    private readonly response: ServerResponse,
    /** The POST's requests' ids, in the order they came: a batch's answers keep it. */
    readonly ids: readonly McpRequestId[],
    /** Headers of the answer (the session's id). */
    private readonly headers: Record<string, string>,
  ) {}

  /** Whether the answer can still be written: false once the client has gone. */
  get open(): boolean {
    return !this.response.writableEnded && !this.response.destroyed;
  }

  /** Takes the answer to request `id`; true once every request has its answer and the POST is done. */
  answer(id: McpRequestId, message: unknown): boolean {
    this.answers.set(id, message);
    this.stream?.send(message);
    if (this.answers.size < this.ids.length) return false;
    if (this.stream) {
      this.stream.end();
    } else if (this.open) {
      const body = this.ids.length === 1 ? message : this.ids.map((each) => this.answers.get(each));
      const text = JSON.stringify(body);
      // Its length, or Node sends it chunked: the head is written before the body is known.
      this.response.writeHead(200, {
        ...this.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      this.response.end(text);
    }
    return true;
  }

  /** Sends a message within one of the requests, ahead of its answer: the answer is an event stream from now on. */
  within(message: unknown): void {
    if (!this.open) return;
    if (!this.stream) {
      this.stream = new McpEventStream(this.response, this.headers);
      for (const held of this.answers.values()) this.stream.send(held);
    }
    this.stream.send(message);
  }

  /** Ends the answer unsent, the session closed under it: a stream ends, a JSON answer becomes the refusal `error`. */
  abandon(error: { status: number; code: number; message: string }): void {
    if (this.stream) this.stream.end();
    else if (this.open) answerMcpError(this.response, error.status, error.message, { code: error.code });
  }
}

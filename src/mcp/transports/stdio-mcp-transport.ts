import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpSdk } from '../load-mcp-sdk.js';
import { type ProtocolRequestRoutine, protocolRequestRoutine } from './protocol-request-routine.js';

/** The most a line may grow to before its newline, as the SDK's stdio transport allows. */
export const MAX_STDIO_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The MCP SDK's Transport over a process's stdin and stdout: one JSON-RPC
 * message a line, each validated as the SDK's own stdio transport validates
 * it (`JSONRPCMessageSchema`) before the protocol classes see it. It reads
 * each line where it lies in the chunk that holds it, where the SDK's
 * copies every chunk after the first into a new buffer holding what was
 * left of the one before, and trims a carriage return without a regular
 * expression; only a line split across chunks is joined. A line that grows
 * past MAX_STDIO_LINE_BYTES without its newline closes the transport, as
 * the SDK's does.
 */
export class StdioMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The start of a line whose newline has not come yet, in the chunks it arrived in. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Where a validated request goes: the protocol's own routine once `handOver` has found it, else `onmessage`. */
  private requestRoutine: ProtocolRequestRoutine | undefined;

  constructor(
    private readonly sdk: McpSdk,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.read);
    this.input.on('error', this.failed);
  }

  /** Called once `protocol` has connected: requests skip its `onmessage`'s second classification (protocolRequestRoutine). */
  handOver(protocol: object): void {
    this.requestRoutine = protocolRequestRoutine(protocol);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.read);
    this.input.off('error', this.failed);
    // Paused only when nothing else reads it, so the process can exit.
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.partial = [];
    this.partialBytes = 0;
    this.onclose?.();
  }

  private readonly failed = (error: Error) => this.onerror?.(error);

  private readonly read = (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (this.partial.length === 0) {
        this.deliver(chunk, start, end);
      } else {
        const line = Buffer.concat([...this.partial, chunk.subarray(start, end)]);
        this.partial = [];
        this.partialBytes = 0;
        this.deliver(line, 0, line.length);
      }
      start = end + 1;
    }
    if (start === chunk.length) return;
    this.partialBytes += chunk.length - start;
    if (this.partialBytes > MAX_STDIO_LINE_BYTES) {
      this.onerror?.(new Error(`A message is at most ${MAX_STDIO_LINE_BYTES} bytes`));
      void this.close();
      return;
    }
    this.partial.push(chunk.subarray(start));
  };

  /** The message of the line `bytes[start, end)`, validated, to the protocol; a bad one, or a failure handling it, to `onerror`. */
  private deliver(bytes: Buffer, start: number, end: number): void {
    const last = end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    try {
      const message = this.sdk.JSONRPCMessageSchema.parse(JSON.parse(bytes.toString('utf8', start, last)));
      // Validated: a request (a method and an id) goes straight to the protocol's request routine.
      if (this.requestRoutine && 'method' in message && 'id' in message) this.requestRoutine(message);
      else this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

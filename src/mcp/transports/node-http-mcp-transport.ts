import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpSdk } from '../load-mcp-sdk.js';
import type { McpCallerAuth } from '../mcp-server.js';
import { McpEventStream } from './mcp-event-stream.js';
import { answerMcpError } from './mcp-http-answer.js';
import { McpPostAnswer, type McpRequestId } from './mcp-post-answer.js';
import { type ProtocolRequestRoutine, protocolRequestRoutine } from './protocol-request-routine.js';

/** Most messages in one batch, as the SDK's own transport takes. */
const MAX_BATCH_SIZE = 100;

/** A refusal: the status and the JSON-RPC error of the SDK's own transport, in its words. */
interface Refusal {
  status: number;
  code: number;
  message: string;
}

const refusal = (status: number, message: string, code = -32000): Refusal => ({ status, code, message });

const SESSION_NOT_FOUND = refusal(404, 'Session not found', -32001);

function refuse(response: ServerResponse, refused: Refusal): void {
  answerMcpError(response, refused.status, refused.message, { code: refused.code });
}

/** An answer (a result or an error) rather than a request or a notification; the message has been validated. */
function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id?: McpRequestId } {
  return 'result' in message || 'error' in message;
}

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/**
 * The MCP SDK's Transport for one client session over Streamable HTTP, on
 * Node's own request and response. The SDK's protocol classes parse and
 * validate every message and run the handlers as with the SDK's own
 * transport, which keeps to the same rules (Accept and Content-Type, the
 * session's id and protocol version, one initialize, 202 for notifications,
 * the same refusals), but the SDK's turns each request into a web Request
 * and each answer into a web Response, read and written back through web
 * streams, several times the CPU of the call's own JSON-RPC handling. This
 * one takes the body already parsed and writes each answer straight to the
 * response: as JSON, or as an event stream once a message must go ahead of
 * an answer (McpPostAnswer). Messages not tied to a request (the tool list
 * changing) go to the session's listening stream (GET), or nowhere while
 * none is open. No event store: a stream cut off is not replayed.
 */
export class NodeHttpMcpTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private sessionHeaders: Record<string, string> = {};
  private closed = false;
  private readonly pending = new Map<McpRequestId, McpPostAnswer>();
  private listening: McpEventStream | undefined;
  /** Where a validated request goes: the protocol's own routine once `handOver` has found it, else `onmessage`. */
  private requestRoutine: ProtocolRequestRoutine | undefined;

  constructor(
    private readonly sdk: McpSdk,
    private readonly session: { newId: () => string; initialized: (id: string) => void },
  ) {}

  async start(): Promise<void> {}

  /**
   * Called once `protocol` has connected to this transport: each request,
   * validated here, goes to the protocol's own request routine
   * (protocolRequestRoutine) instead of its `onmessage`, which would
   * classify it again schema by schema.
   */
  handOver(protocol: object): void {
    this.requestRoutine = protocolRequestRoutine(protocol);
  }

  /** Answers one request of this session: a POST's `body` already parsed, `auth` handed to each message's handler. */
  handleRequest(
    request: IncomingMessage,
    response: ServerResponse,
    body?: unknown,
    auth?: McpCallerAuth,
  ): void {
    if (this.closed) refuse(response, SESSION_NOT_FOUND);
    else if (request.method === 'POST') this.post(request, response, body, auth);
    else if (request.method === 'GET') this.listen(request, response);
    else if (request.method === 'DELETE') this.delete(request, response);
    else answerMcpError(response, 405, 'Method not allowed.', { headers: { allow: 'GET, POST, DELETE' } });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answering = isAnswer(message);
    const id = answering ? message.id : options?.relatedRequestId;
    if (this.closed) return;
    if (id === undefined || id === null) {
      if (answering) throw new Error('Cannot send a response on a standalone SSE stream');
      if (this.listening?.open) this.listening.send(message);
      return;
    }
    const answer = this.pending.get(id);
    if (!answer) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (!answering) answer.within(message);
    else if (answer.answer(id, message)) for (const each of answer.ids) this.pending.delete(each);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listening?.end();
    for (const answer of new Set(this.pending.values())) answer.abandon(SESSION_NOT_FOUND);
    this.pending.clear();
    this.onclose?.();
  }

  private post(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    auth?: McpCallerAuth,
  ): void {
    const read = this.messagesOf(request, body);
    if ('status' in read) {
      refuse(response, read);
      return;
    }
    const extra: MessageExtraInfo = { authInfo: auth, requestInfo: { headers: request.headers } };
    const ids = [...new Set(read.filter(isRequest).map((message) => message.id))];
    if (ids.length === 0) {
      for (const message of read) this.onmessage?.(message, extra);
      response.writeHead(202).end();
      return;
    }
    const answer = new McpPostAnswer(response, ids, this.sessionHeaders);
    for (const id of ids) this.pending.set(id, answer);
    for (const message of read) {
      if (this.requestRoutine && isRequest(message)) this.requestRoutine(message, extra);
      else this.onmessage?.(message, extra);
    }
  }

  /** A POST's messages, validated, with the session started by an initialize; or why they are refused. */
  private messagesOf(request: IncomingMessage, body: unknown): JSONRPCMessage[] | Refusal {
    const accept = request.headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return refusal(406, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!this.sdk.isJsonContentType(request.headers['content-type'])) {
      return refusal(415, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return refusal(400, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`, -32600);
    }
    let messages: JSONRPCMessage[];
    try {
      const schema = this.sdk.JSONRPCMessageSchema;
      messages = Array.isArray(body) ? body.map((each) => schema.parse(each)) : [schema.parse(body)];
    } catch {
      return refusal(400, 'Parse error: Invalid JSON-RPC message', -32700);
    }
    // The method first: the SDK's full check of an initialize is wasted on every other message.
    const isInitialize = (message: JSONRPCMessage) =>
      'method' in message && message.method === 'initialize' && this.sdk.isInitializeRequest(message);
    if (!messages.some(isInitialize)) return this.sessionRefusal(request) ?? messages;
    if (this.sessionId !== undefined)
      return refusal(400, 'Invalid Request: Server already initialized', -32600);
    if (messages.length > 1) {
      return refusal(400, 'Invalid Request: Only one initialization request is allowed', -32600);
    }
    this.sessionId = this.session.newId();
    this.sessionHeaders = { 'mcp-session-id': this.sessionId };
    this.session.initialized(this.sessionId);
    return messages;
  }

  /** Why a request that starts no session does not belong to this one (its id, its protocol version). */
  private sessionRefusal(request: IncomingMessage): Refusal | undefined {
    if (this.sessionId === undefined) return refusal(400, 'Bad Request: Server not initialized');
    const id = request.headers['mcp-session-id'];
    if (!id) return refusal(400, 'Bad Request: Mcp-Session-Id header is required');
    if (id !== this.sessionId) return SESSION_NOT_FOUND;
    const version = request.headers['mcp-protocol-version'];
    if (version === undefined || this.sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(String(version)))
      return undefined;
    const supported = this.sdk.SUPPORTED_PROTOCOL_VERSIONS.join(', ');
    return refusal(
      400,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
    );
  }

  /** A GET: the session's one listening stream, for messages not tied to a request. */
  private listen(request: IncomingMessage, response: ServerResponse): void {
    const refused = request.headers.accept?.includes('text/event-stream')
      ? (this.sessionRefusal(request) ??
        (this.listening?.open
          ? refusal(409, 'Conflict: Only one SSE stream is allowed per session')
          : undefined))
      : refusal(406, 'Not Acceptable: Client must accept text/event-stream');
    if (refused) refuse(response, refused);
    else this.listening = new McpEventStream(response, this.sessionHeaders);
  }

  /** A DELETE: the client ends its session. */
  private delete(request: IncomingMessage, response: ServerResponse): void {
    const refused = this.sessionRefusal(request);
    if (refused) {
      refuse(response, refused);
      return;
    }
    response.writeHead(200).end();
    void this.close();
  }
}

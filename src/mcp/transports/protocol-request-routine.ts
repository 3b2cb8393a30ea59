import type { JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** The protocol's own handling of one request: its handler (which parses the request), then its answer or error. */
export type ProtocolRequestRoutine = (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;

/**
 * The routine a connected MCP SDK protocol object (a Server) runs for each
 * request, for a transport that has already validated and classified the
 * message with the SDK's `JSONRPCMessageSchema`. The `onmessage` the SDK
 * installs on connect classifies every message again by trying it against
 * each kind's schema in turn, a result and an error first: for a request
 * both fail, and a failing zod parse builds a ZodError (a stack trace and
 * every issue's message), about 190 K instructions per request in a young
 * process, more than the request's own handling. The request still goes
 * through the protocol: its handler parses it with the method's schema and
 * the Server checks a tool call and its result as always. Undefined when the
 * SDK has no such routine (another version): the transport then hands every
 * message to `onmessage`.
 */
export function protocolRequestRoutine(protocol: object): ProtocolRequestRoutine | undefined {
  const routine = (protocol as { _onrequest?: unknown })._onrequest;
  if (typeof routine !== 'function') return undefined;
  return (request, extra) => routine.call(protocol, request, extra);
}

import { NetworkError, TimeoutError } from '../../src/errors/index.js';
import { startDeadline } from '../../src/http/attempt-deadline.js';
import { createDispatcher, dispatcherWire } from '../../src/http/dispatcher-wire.js';
import type { Wire } from '../../src/http/wire.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import {
  injectTraceContext,
  inSpan,
  type SafeAttributes,
  setSafeAttributes,
} from '../../src/telemetry/index.js';
import type { ForwardTarget } from './forward-target.js';

/** The header that names the event's tenant on a forward (also the body's `tenant`). */
export const TENANT_HEADER = 'x-toolsteps-tenant';

/** How long one forward may take, by default. */
export const FORWARD_DEADLINE_MS = 10_000;

/** The low-level code of a failed request (ECONNREFUSED...), the one part of the failure kept. */
function transportCode(error: unknown): string | undefined {
  const failure = error as { code?: unknown; cause?: { code?: unknown } };
  const code = failure.code ?? failure.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

let forwardWire: Wire | undefined;

/**
 * The wire every forward of this process goes on, made on first use: one
 * keep-alive pool straight on undici's callback API, as an invocation's
 * requests go, without fetch's WHATWG Request, Response and stream objects
 * (a worker forwards every event it runs). No timeout of its own and no
 * proxy, as the fetch it replaces: the forward's deadline bounds each wait.
 */
function wire(): Wire {
  forwardWire ??= dispatcherWire(createDispatcher({ headersTimeoutMs: 0, bodyTimeoutMs: 0 }, {}));
  return forwardWire;
}

/** What a forward's span may say of its target: scheme, host and port, as `redacted` shows them; never its path or query. */
function targetAttributes(target: ForwardTarget): SafeAttributes {
  const url = new URL(target.url());
  return {
    'http.request.method': 'POST',
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    'url.scheme': url.protocol.slice(0, -1),
    'toolsteps.handoff': 'forward',
  };
}

export interface ForwardOptions {
  deadlineMs?: number;
  signal?: AbortSignal;
  /** The event as JSON, when the caller has it already: it is sent as it is. */
  json?: string;
}

/**
 * POSTs the event as JSON to the target, in a CLIENT span (`POST`) whose
 * context goes with the request as `traceparent`, so the platform's own
 * spans (an invocation's) continue the event's trace. Anything but a 2xx within the
 * deadline (or before `signal` aborts) throws, so the event stays undone
 * and is tried again. Errors name the target only as `target.redacted`, and
 * keep no raw cause that might quote the URL: they travel to logs and, in
 * `worker`, into Redis as the job's failure.
 */
export function forwardEvent(
  target: ForwardTarget,
  event: TriggerEvent,
  options: ForwardOptions = {},
): Promise<void> {
  return inSpan('POST', { kind: 'client', attributes: targetAttributes(target) }, async (span) => {
    const status = await post(target, event, options);
    if (span) setSafeAttributes(span, { 'http.response.status_code': status });
    if (status < 200 || status > 299)
      throw new NetworkError(`Forwarding to ${target.redacted} answered ${status}.`, { status });
  });
}

/** One POST of the event within the deadline; its status, or a typed error naming only `target.redacted`. */
async function post(target: ForwardTarget, event: TriggerEvent, options: ForwardOptions): Promise<number> {
  const deadlineMs = options.deadlineMs ?? FORWARD_DEADLINE_MS;
  const deadline = startDeadline(deadlineMs, options.signal);
  try {
    const answer = await wire()({
      url: new URL(target.url()),
      method: 'POST',
      // The tenant in a header too, so a receiver can route before it parses the body.
      headers: injectTraceContext({ 'content-type': 'application/json', [TENANT_HEADER]: event.tenant }),
      body: options.json ?? JSON.stringify(event),
      cancellation: deadline.cancellation,
    });
    await answer.discard();
    return answer.status;
  } catch (error) {
    if (deadline.expired)
      throw new TimeoutError(`Forwarding to ${target.redacted} took over ${deadlineMs} ms.`);
    throw new NetworkError(`Forwarding to ${target.redacted} failed.`, {
      transportCode: transportCode(error),
    });
  } finally {
    deadline.clear();
  }
}

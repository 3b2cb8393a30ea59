import type { OutgoingHttpHeaders } from 'node:http';
import { openEventStream } from '../server/event-stream.js';
import { ANSWERED, type RouteHandler } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';
import { bearerClaims } from './bearer-claims.js';
import { mayUseTrigger } from './tenant-guards.js';

/** When a refused stream may try again: streams close as screens do, within tens of seconds. */
const SERVER_BUSY_RETRY_MS = 30_000;

/**
 * Why a stream was not opened: the tenant's own cap is its own doing (429,
 * like its other limits); the server's is everyone's streams together, a
 * busy server (503), worth trying again once some close.
 */
function streamRefusal(cap: 'tenant' | 'server'): ApiRefusal {
  if (cap === 'tenant')
    return new ApiRefusal(429, 'rate_limited', 'Too many event streams open for this tenant.');
  return new ApiRefusal(
    503,
    'server_busy',
    'Too many event streams open on this server; try again shortly.',
    [],
    SERVER_BUSY_RETRY_MS,
  );
}

/**
 * `GET /v1/events`: server-sent events of the tenant's trigger events, for
 * a "waiting for a test event" screen, of the integrations the token may
 * use. The stream ends when the token expires or is revoked (a stream must
 * not outlive what authorised it: the token is checked again before each
 * event and at each heartbeat), when the client stops reading, or when it goes.
 */
export const triggerEvents: RouteHandler = async (call) => {
  let stream: ReturnType<typeof openEventStream> | undefined;
  const listening = call.server.hub.listen(call.tenant.tenant, (event) => {
    if (!mayUseTrigger(call, event.trigger)) return;
    stream?.send({ event: 'trigger', id: event.eventId, data: JSON.stringify(event) });
  });
  if ('refused' in listening) throw streamRefusal(listening.refused);
  // The stream is written here, not by the framework: it keeps the headers CORS set on the reply.
  call.reply.hijack();
  stream = openEventStream(call.request.raw, call.reply.raw, {
    headers: call.reply.getHeaders() as OutgoingHttpHeaders,
    endAfterMs: call.claims.expiresAt.getTime() - call.server.now(),
    stillAllowed: () =>
      Promise.resolve()
        .then(() => bearerClaims(call.request.headers.authorization, call.server.options.tokens))
        .then(
          () => true,
          () => false,
        ),
    onClose: listening.stop,
  });
  call.server.trackStream(call.reply.raw);
  return ANSWERED;
};

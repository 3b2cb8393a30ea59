import { ANSWERED, type RouteHandler } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';

/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /v1/events`: server-sent events of the tenant's trigger events, for
 * a "waiting for a test event" screen. The stream ends when the token
 * expires (a stream must not outlive what authorised it) or the client goes.
 */
export const triggerEvents: RouteHandler = async (call) => {
  const { response, request } = call;
  const stop = call.server.hub.listen(call.tenant.tenant, (event) => {
    response.write(`event: trigger\nid: ${event.eventId}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  if (!stop) throw new ApiRefusal(429, 'rate_limited', 'Too many event streams open for this tenant.');
  response.writeHead(200, {
    ...call.server.cors().headers(call.origin),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  response.write(': connected\n\n');
  const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
  const untilExpiry = Math.max(0, call.claims.expiresAt.getTime() - call.server.now());
  // setTimeout holds at most 2^31-1 ms; a longer-lived token is cut at that and reconnects.
  const expiry = setTimeout(() => response.end(), Math.min(untilExpiry, 2 ** 31 - 1));
  const end = () => {
    clearInterval(heartbeat);
    clearTimeout(expiry);
    stop();
  };
  request.once('close', end);
  response.once('close', end);
  call.server.trackStream(response);
  return ANSWERED;
};

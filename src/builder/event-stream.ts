import { ANSWERED, type RouteHandler } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';
import { bearerClaims } from './request-parts.js';
import { mayUseTrigger } from './tenant-guards.js';

/** A comment line this often keeps proxies from closing an idle stream, and checks the token again. */
const HEARTBEAT_MS = 15_000;

/**
 * Bytes a stream may hold unsent: a client that stops reading is cut off
 * here instead of Node buffering every later event for it without bound.
 */
export const MAX_UNSENT_BYTES = 1 << 20;

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

/** An SSE field value on one line: a line break in it would start a field of the sender's choosing. */
const oneLine = (value: string) => value.replace(/[\r\n]/g, ' ');

/**
 * `GET /v1/events`: server-sent events of the tenant's trigger events, for
 * a "waiting for a test event" screen, of the integrations the token may
 * use. The stream ends when the token expires or is revoked (a stream must
 * not outlive what authorised it: the token is checked again before each
 * event and at each heartbeat), when the client stops reading, or when it goes.
 */
export const triggerEvents: RouteHandler = async (call) => {
  const { response, request } = call;
  const stillAuthorised = () =>
    bearerClaims(request, call.server.options.tokens).then(
      () => true,
      () => false,
    );
  // One event at a time, in order, each after its token check.
  let sending: Promise<void> = Promise.resolve();
  const send = (text: string) => {
    sending = sending.then(async () => {
      if (response.writableEnded) return;
      if (!(await stillAuthorised())) return void response.end();
      response.write(text);
      if (response.writableLength > MAX_UNSENT_BYTES) response.destroy();
    });
  };
  const listening = call.server.hub.listen(call.tenant.tenant, (event) => {
    if (!mayUseTrigger(call, event.trigger)) return;
    send(`event: trigger\nid: ${oneLine(event.eventId)}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  if ('refused' in listening) throw streamRefusal(listening.refused);
  const { stop } = listening;
  response.writeHead(200, {
    ...call.server.cors().headers(call.origin),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  response.write(': connected\n\n');
  const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS);
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

import type { HostOriginGuard } from '../server/host-origin-guard.js';
import { ApiRefusal } from './api-refusal.js';

/**
 * The request's Origin when the guard lets it in (undefined when it sent
 * none: a server or a tool), else the API's refusal: a Host that is not
 * loopback on a loopback server (a rebound DNS name), or an Origin the
 * server does not name, before its token is read.
 */
export function checkedOrigin(
  guard: HostOriginGuard,
  headers: { host?: string | undefined; origin?: string | undefined },
): string | undefined {
  const verdict = guard.check(headers);
  if (!('refused' in verdict)) return verdict.origin;
  if (verdict.refused === 'host') throw new ApiRefusal(403, 'forbidden', 'Host not allowed.');
  throw new ApiRefusal(403, 'origin_not_allowed', 'Origin not allowed.');
}

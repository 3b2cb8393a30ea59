import type { Router } from '../router.js';
import { json } from '../sandbox-http.js';
import { buildLog, eventsPage } from './build-log.js';
import type { Caller } from './deployments-wire.js';
import { badRequest, type DeploymentsRequest, intParam, notFound } from './deployments-wire.js';

/** The provider's page when no limit is given (an assumption; the description names none). */
const DEFAULT_LIMIT = 100;

function deploymentEvents(request: DeploymentsRequest) {
  const caller = request.caller;
  const deployment = caller.scope.deployment(request.params.id ?? '');
  if (!deployment) return notFound('Deployment');
  const direction = request.query.get('direction') ?? 'forward';
  if (direction !== 'forward' && direction !== 'backward') {
    return badRequest('`direction` must be forward or backward.');
  }
  if (request.query.get('follow') === '1') {
    // A stream that never ends would hang a client that asked for JSON; the sandbox serves pages only.
    return badRequest('`follow=1` (a live stream) is not served by the sandbox; page with `since`.');
  }
  const limit = intParam(request, 'limit', { min: -1, max: 10_000 });
  const since = intParam(request, 'since', { min: 0, max: Number.MAX_SAFE_INTEGER });
  const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (limit === 'invalid' || limit === 0 || since === 'invalid' || until === 'invalid') {
    return badRequest('`limit` is a positive number or -1; `since` and `until` are ms timestamps.');
  }
  const events = buildLog(deployment, caller.now);
  return json(200, eventsPage(events, { direction, limit: limit ?? DEFAULT_LIMIT, since, until }));
}

/** A deployment's build log, as JSON pages (`GET /v3/deployments/{idOrUrl}/events`). */
export function eventRoutes(router: Router<Caller>): void {
  router.on('GET', '/v3/deployments/:id/events', deploymentEvents);
}

import type { RouteRequest } from '../router.js';
import { json, type Reply, type SandboxRequest } from '../sandbox-http.js';
import type { OwnerScope, ProjectRecord, UserRecord } from './deployments-state.js';
import type { DeploymentsWorld } from './deployments-world.js';

/** Who is calling, and on whose behalf: the personal account or the team named by `teamId`. */
export interface Caller {
  user: UserRecord;
  scope: OwnerScope;
  world: DeploymentsWorld;
  now: number;
}

/** Every deployments route receives the caller the emulator authenticated. */
export type DeploymentsRequest = RouteRequest<Caller>;

/** The provider's error body: `{"error": {"code", "message", ...}}`. */
export function apiError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Reply {
  return json(status, { error: { code, message, ...extra } });
}

/** An integer query parameter within bounds; `invalid` when present but unusable. */
export function intParam(
  request: SandboxRequest,
  name: string,
  bounds: { min: number; max: number },
): number | undefined | 'invalid' {
  const raw = request.query.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) return 'invalid';
  return value;
}

export function badRequest(message: string): Reply {
  return apiError(400, 'bad_request', `Invalid request: ${message}`);
}

export function notFound(what: string): Reply {
  return apiError(404, 'not_found', `${what} was not found.`);
}

/** Timestamp pagination as the provider answers it: `next` is the last item's time, for `until`. */
export function timePage<T>(
  items: T[],
  limit: number,
  timeOf: (item: T) => number,
): { page: T[]; pagination: { count: number; next: number | null; prev: number | null } } {
  const page = items.slice(0, limit);
  const more = items.length > page.length;
  const last = page.at(-1);
  const first = page[0];
  return {
    page,
    pagination: {
      count: page.length,
      next: more && last !== undefined ? timeOf(last) : null,
      prev: first !== undefined ? timeOf(first) : null,
    },
  };
}

/** The project named by the `:id` route param (id or name), in the caller's scope. */
export function projectOf(request: DeploymentsRequest): ProjectRecord | undefined {
  return request.caller.scope.project(request.params.id ?? '');
}

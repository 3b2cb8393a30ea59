import { json, type Reply } from '../sandbox-http.js';
import type { ProjectRole } from './governance-state.js';

/**
 * The platform's permission-set name as the spec gives it. The emulator is
 * the provider, so it keeps its own copy rather than trusting the client's.
 */
const PERMISSION_SET = 'serviceDefault';
const ACTION_ROLES: Record<string, ProjectRole> = {
  admin: 'admin',
  'role:editor': 'editor',
  'role:viewer': 'viewer',
};
const ROLE_RANK: ProjectRole[] = ['viewer', 'editor', 'admin'];

/** Every error of the platform is `{"message": "..."}` (provider facts). */
export function fail(status: number, message: string): Reply {
  return json(status, { message });
}

/** A refusal, told apart from a result by its `reply` member. */
export type Problem = { reply: Reply };

/** Reads the permissions object of the spec into one role, or explains what is wrong with it. */
export function roleOf(permissions: unknown): ProjectRole | Problem {
  const invalid = (message: string) => ({ reply: fail(422, `permissions: ${message}`) });
  if (typeof permissions !== 'object' || permissions === null) return invalid('an object is required');
  const items = (permissions as { items?: unknown }).items;
  if (typeof items !== 'object' || items === null) return invalid('"items" must be an object');
  const names = Object.keys(items);
  const unknown = names.filter((name) => name !== PERMISSION_SET);
  if (unknown.length) return invalid(`unknown permission set "${unknown[0]}"; use "${PERMISSION_SET}"`);
  const actions = (items as Record<string, { actions?: unknown } | undefined>)[PERMISSION_SET]?.actions;
  if (typeof actions !== 'object' || actions === null) {
    return invalid(`"items.${PERMISSION_SET}.actions" must be an object`);
  }
  const granted: ProjectRole[] = [];
  for (const [action, value] of Object.entries(actions)) {
    const role = ACTION_ROLES[action];
    if (!role) return invalid(`unknown action "${action}"; allowed: ${Object.keys(ACTION_ROLES).join(', ')}`);
    if (typeof value !== 'boolean') return invalid(`action "${action}" must be true or false`);
    if (value) granted.push(role);
  }
  if (!granted.length) return invalid('no action is granted');
  // Several roles granted: the strongest one applies.
  return granted.sort((a, b) => ROLE_RANK.indexOf(b) - ROLE_RANK.indexOf(a))[0]!;
}

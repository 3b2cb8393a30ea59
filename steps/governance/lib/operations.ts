import type { HttpClient, HttpResponse } from '../../../src/kit/index.js';

/**
 * How each operation sends the key (spec, Authentication). The three shapes
 * are the spec's own, including the role update that has no `Bearer` prefix.
 */
export const AUTH_SHAPES = {
  /** `Bearer :<api_key>`: no project exists yet. */
  bearerNoProject: 'bearer_no_project',
  /** `Bearer <project_id>:<api_key>`. */
  bearerProject: 'bearer_project',
  /** `<project_id>:<api_key>`, exactly as the spec shows it for Update User Role. */
  plainProject: 'plain_project',
} as const;
export type AuthShape = (typeof AUTH_SHAPES)[keyof typeof AUTH_SHAPES];

/** Every operation the steps use: its path (all POST, JSON) and how it authenticates. */
export const governanceOperations = {
  createProject: { path: '/latest/projects/create', auth: AUTH_SHAPES.bearerNoProject },
  inviteUser: { path: '/latest/auth/invite/create', auth: AUTH_SHAPES.bearerProject },
  updateUserRole: { path: '/latest/auth/users/{user_id}/update', auth: AUTH_SHAPES.plainProject },
  deleteInvite: { path: '/latest/auth/invite/delete', auth: AUTH_SHAPES.bearerProject },
  removeUser: { path: '/latest/auth/users/{user_id}/delete', auth: AUTH_SHAPES.bearerProject },
} as const;
export type GovernanceOperation = keyof typeof governanceOperations;

export function isGovernanceOperation(name: string | undefined): name is GovernanceOperation {
  return name !== undefined && Object.hasOwn(governanceOperations, name);
}

export const governancePaths = Object.fromEntries(
  Object.entries(governanceOperations).map(([name, operation]) => [name, operation.path]),
) as { readonly [Name in GovernanceOperation]: string };

/**
 * Sends one governance operation: POST, JSON, the operation's path and
 * Authorization shape, and its name, which the error classifier reads.
 * `userId` is already validated by the step's schema and is encoded anyway,
 * so no value can reach another path.
 */
export function callGovernance<Body = unknown>(
  http: HttpClient,
  operation: GovernanceOperation,
  body: Record<string, unknown>,
  options: { userId?: string; idempotent?: boolean } = {},
): Promise<HttpResponse<Body>> {
  const { path, auth } = governanceOperations[operation];
  return http.request<Body>({
    method: 'POST',
    path: path.replace('{user_id}', encodeURIComponent(options.userId ?? '')),
    body,
    authVariant: auth,
    operation,
    idempotent: options.idempotent,
  });
}

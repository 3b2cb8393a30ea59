import {
  AuthError,
  NotFoundError,
  type ParsedProviderError,
  PermissionError,
  type ProviderFailure,
} from '../../../src/kit/index.js';
import { type GovernanceOperation, isGovernanceOperation } from './operations.js';

/** Only Create Project is open to any valid key; the spec requires Admin on the project for the rest. */
const NEEDS_ADMIN = new Set<GovernanceOperation>([
  'inviteUser',
  'updateUserRole',
  'deleteInvite',
  'removeUser',
]);

/** What a 404 on each operation can mean, so the caller knows which id to check. */
const NOT_FOUND_HINTS: Record<GovernanceOperation, string> = {
  createProject:
    'Check organization_id: the key can only create projects in an organization its user belongs to.',
  inviteUser: "Check the connection's projectId.",
  updateUserRole:
    "Check user_id (the user must already be a member of the project) and the connection's projectId.",
  deleteInvite:
    "Check invite_code and the connection's projectId. Only pending invites can be deleted: an invite that was accepted or deleted is gone.",
  removeUser: "Check user_id (the user must be a member of the project) and the connection's projectId.",
};

/**
 * The platform's error body has no code, so the status and the operation that
 * failed are all there is to go on. The operation is the one `callGovernance`
 * named on the request; a request without one (none today) gets only the
 * status-based 401 rule and the shared classification.
 */
export function classifyGovernanceError(failure: ProviderFailure, parsed: ParsedProviderError) {
  const operation = isGovernanceOperation(failure.operation) ? failure.operation : undefined;
  const where = `${failure.method} ${failure.path}`;
  const said = parsed.message
    ? ` The platform said: ${parsed.message}${/[.!?]$/.test(parsed.message) ? '' : '.'}`
    : '';
  const known = {
    sent: true,
    providerMessage: parsed.message,
    context: { method: failure.method, path: failure.path },
  };
  if (failure.status === 401) {
    // A user deactivated in the identity provider loses every API key at once (spec, Authentication 4).
    return new AuthError(
      `${where} was refused (401): the API key is not accepted. It was deactivated (a user deactivated in the organization's identity provider loses all their API keys immediately) or it is not a valid key for this region.${said}`,
      { ...known, status: 401, context: { ...known.context, reason: 'key_deactivated_or_invalid' } },
    );
  }
  if (failure.status === 403 && operation && NEEDS_ADMIN.has(operation)) {
    return new PermissionError(
      `${where} was refused (403): it needs the Admin permission on the project, and the API key's user does not have it. Use an admin's key, or have an admin grant this user the admin role.${said}`,
      { ...known, status: 403, context: { ...known.context, requiredPermission: 'Admin' } },
    );
  }
  if (failure.status === 404 && operation) {
    return new NotFoundError(`${where} found nothing (404). ${NOT_FOUND_HINTS[operation]}${said}`, {
      ...known,
      status: 404,
    });
  }
  return undefined;
}

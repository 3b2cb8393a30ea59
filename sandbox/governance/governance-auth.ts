import type { SandboxRequest } from '../sandbox-http.js';
import type { GovernanceAssumptions } from './governance-assumptions.js';
import { fail, type Problem } from './governance-permissions.js';
import type { GovernanceRegion, GovernanceState, ProjectRecord, UserRecord } from './governance-state.js';

/** Who is calling: the key's user, in the region stack they called, with the state of the platform. */
export interface GovernanceCaller {
  state: GovernanceState;
  user: UserRecord;
  region: GovernanceRegion;
  /** The project named before the colon of the Authorization header; empty for `Bearer :<key>`. */
  projectPart: string;
  /** What the spec leaves open, as this sandbox was told to assume it. */
  assumptions: GovernanceAssumptions;
}

export interface ProjectCaller extends GovernanceCaller {
  project: ProjectRecord;
}

/**
 * `Authorization: [Bearer ]<project_id>:<api_key>`. Checked on every request,
 * so deactivating a user takes effect on the very next one.
 */
export function authenticate(
  state: GovernanceState,
  request: SandboxRequest,
  region: GovernanceRegion,
): Omit<GovernanceCaller, 'assumptions'> | Problem {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^(?:Bearer )?([^:\s]*):(\S+)$/.exec(header) : null;
  if (!match) {
    return {
      reply: fail(401, 'Missing or malformed Authorization header: expected <project_id>:<api_key>'),
    };
  }
  const [, projectPart = '', key = ''] = match;
  const userId = state.keys.get(key);
  const user = userId ? state.users.get(userId) : undefined;
  // Like some real platforms, the emulator echoes the credential it refused: clients must redact it.
  if (!user) return { reply: fail(401, `Invalid API key: ${key}`) };
  if (!user.active) {
    return {
      reply: fail(401, 'API key deactivated: its user has been deactivated in the identity provider'),
    };
  }
  // Each region is its own stack: a key only exists where its organization is hosted.
  if (!state.organizationsOf(user.id).some((organization) => organization.region === region)) {
    return { reply: fail(401, `Invalid API key: ${key}`) };
  }
  return { state, user, region, projectPart };
}

/** The project named in the Authorization header, visible to the caller, with the Admin permission. */
export function adminOfProject(caller: GovernanceCaller): ProjectCaller | Problem {
  if (!caller.projectPart) {
    return {
      reply: fail(400, 'This operation needs a project: Authorization must be <project_id>:<api_key>'),
    };
  }
  const { state } = caller;
  const project = state.projects.get(caller.projectPart);
  const organization = project ? state.organizations.get(project.organizationId) : undefined;
  const visible =
    organization?.region === caller.region &&
    (organization.members.has(caller.user.id) || organization.admins.has(caller.user.id));
  if (!project || !organization || !visible) return { reply: fail(404, 'Project not found') };
  const admin = organization.admins.has(caller.user.id) || project.members.get(caller.user.id) === 'admin';
  if (!admin) return { reply: fail(403, 'Permission denied: Admin permission on this project is required') };
  return { ...caller, project };
}

import { z } from 'zod';
import { AuthError, InputError, isToolstepsError, NotFoundError, PermissionError } from '../../src/errors.js';
import type { HttpClient, HttpResponse } from '../../src/http/http-client.js';
import { defineIntegration, type ParsedProviderError, type ProviderFailure } from '../../src/integration.js';
import { mayHaveLanded, type Outcome } from '../../src/outcome.js';
import type { StepContext } from '../../src/step.js';

/**
 * The platform's public host. Confirmed from the platform's own governance
 * docs (relevanceai.com/docs/enterprise/org-project-controls-governance),
 * whose examples call `https://api-f1db6c.stack.tryrelevance.com/latest/...`.
 */
export const PLATFORM_HOST = 'tryrelevance.com';

/** The one region table: each region is its own stack, with its own host (provider facts). */
export const REGION_CODES = { au: 'f1db6c', eu: 'd7b62b', us: 'bcbe5a' } as const;
export const REGIONS = Object.keys(REGION_CODES) as [
  keyof typeof REGION_CODES,
  ...(keyof typeof REGION_CODES)[],
];
export type Region = keyof typeof REGION_CODES;

export function regionBaseUrl(region: Region): string {
  return `https://api-${REGION_CODES[region]}.stack.${PLATFORM_HOST}`;
}

/**
 * The permission-set name under `permissions.items`. The spec says
 * `serviceDefault`; the platform's public docs say `relevanceDefault`. The
 * spec wins; this constant is the one place to change if the platform disagrees.
 */
export const PERMISSION_SET = 'serviceDefault';

export const Role = z
  .enum(['admin', 'editor', 'viewer'])
  .describe('Role on the project: admin (everything), editor (build and run) or viewer (read and run).');
export type Role = z.infer<typeof Role>;

/** Spec, "Permissions object": the action name that grants each role. */
export const ROLE_ACTIONS = {
  admin: 'admin',
  editor: 'role:editor',
  viewer: 'role:viewer',
} as const satisfies Record<Role, string>;

/** `{items: {serviceDefault: {actions: {<action>: true}}}}`: the only permissions body any step sends. */
export function permissionsFor(role: Role) {
  return { items: { [PERMISSION_SET]: { actions: { [ROLE_ACTIONS[role]]: true } } } };
}

/** Characters that would change which path a value lands on, or smuggle a second segment or a query. */
const NO_PATH_UNSAFE_CHARACTERS = /^[^\s/\\?#%\u0000-\u001f\u007f]*$/;
const NO_DOT_SEGMENTS = /^(?!\.$)(?!.*\.\.)/;

/**
 * An identifier that goes into a URL path segment or a request body. Refused
 * before anything is sent: `/`, `\`, `?`, `#`, `%` (an encoded form of those),
 * whitespace, control characters, `..`, and a lone `.` (URL parsers resolve
 * `/./` and `/../` away, so `users/../invite/delete` would reach another endpoint).
 * Regexes rather than refinements, so the JSON Schema carries them to form renderers.
 */
export function safeId(description: string) {
  return z
    .string()
    .min(1)
    .max(256)
    .regex(
      NO_PATH_UNSAFE_CHARACTERS,
      'cannot contain "/", "\\", "?", "#", "%", whitespace or control characters',
    )
    .regex(NO_DOT_SEGMENTS, 'cannot be "." or contain ".."')
    .describe(description);
}

export const UserId = safeId(
  'Id of the user on the platform (not their email). It goes into the request path, so "/", "?", "#", "..", and whitespace are refused.',
);
export const InviteCode = safeId(
  'The invite_code returned by Invite User to Project (or Change Invite Role).',
);
export const OrganizationId = safeId('Id of the organization that will own the project.');
export const Email = z.email().max(254).describe('Email address of the person to invite.');

/**
 * The project id travels inside the Authorization header as `<project_id>:<api_key>`,
 * so a colon, whitespace or control character would change what the header says.
 */
export const ProjectId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'letters, digits, ".", "_" and "-", up to 128 characters')
  .regex(NO_DOT_SEGMENTS, 'cannot contain ".."');

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
type AuthShape = (typeof AUTH_SHAPES)[keyof typeof AUTH_SHAPES];

/** Every operation the steps use: its path (all POST, JSON) and how it authenticates. */
export const governanceOperations = {
  createProject: { path: '/latest/projects/create', auth: AUTH_SHAPES.bearerNoProject },
  inviteUser: { path: '/latest/auth/invite/create', auth: AUTH_SHAPES.bearerProject },
  updateUserRole: { path: '/latest/auth/users/{user_id}/update', auth: AUTH_SHAPES.plainProject },
  deleteInvite: { path: '/latest/auth/invite/delete', auth: AUTH_SHAPES.bearerProject },
  removeUser: { path: '/latest/auth/users/{user_id}/delete', auth: AUTH_SHAPES.bearerProject },
} as const;
export type GovernanceOperation = keyof typeof governanceOperations;

export const governancePaths = Object.fromEntries(
  Object.entries(governanceOperations).map(([name, operation]) => [name, operation.path]),
) as { readonly [Name in GovernanceOperation]: string };

function operationOfPath(path: string): GovernanceOperation | undefined {
  return (Object.keys(governanceOperations) as GovernanceOperation[]).find((name) =>
    new RegExp(`^${governanceOperations[name].path.replace('{user_id}', '[^/]+')}$`).test(path),
  );
}

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

const GovernanceErrorBody = z.object({ message: z.string().optional() }).loose();

function classifyGovernanceError(failure: ProviderFailure, parsed: ParsedProviderError) {
  const operation = operationOfPath(failure.path);
  const where = `${failure.method} ${failure.path}`;
  const said = parsed.message
    ? ` The platform said: ${parsed.message}${/[.!?]$/.test(parsed.message) ? '' : '.'}`
    : '';
  const details = {
    method: failure.method,
    path: failure.path,
    ...(parsed.message ? { providerMessage: parsed.message } : {}),
  };
  if (failure.status === 401) {
    // The platform's error body has no code, so status is all there is to go on: a user
    // deactivated in the identity provider loses every API key at once (spec, Authentication 4).
    return new AuthError(
      `${where} was refused (401): the API key is not accepted. It was deactivated (a user deactivated in the organization's identity provider loses all their API keys immediately) or it is not a valid key for this region.${said}`,
      { status: 401, details: { ...details, reason: 'key_deactivated_or_invalid' } },
    );
  }
  if (failure.status === 403 && operation && NEEDS_ADMIN.has(operation)) {
    return new PermissionError(
      `${where} was refused (403): it needs the Admin permission on the project, and the API key's user does not have it. Use an admin's key, or have an admin grant this user the admin role.${said}`,
      { status: 403, details: { ...details, requiredPermission: 'Admin' } },
    );
  }
  if (failure.status === 404 && operation) {
    return new NotFoundError(`${where} found nothing (404). ${NOT_FOUND_HINTS[operation]}${said}`, {
      status: 404,
      details,
    });
  }
  return undefined;
}

export const governance = defineIntegration({
  id: 'governance',
  title: 'Platform governance',
  description:
    "The platform's own project controls: create projects, invite users with a role, change roles, delete invites and remove users from a project.",
  keywords: [
    'governance',
    'project',
    'projects',
    'invite',
    'members',
    'membership',
    'roles',
    'permissions',
    'admin',
    'users',
    'access control',
  ],
  connection: {
    kind: 'api_key',
    fields: z.object({
      region: z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(REGIONS))
        .describe('Region the organization is hosted in: au, eu or us. Each region has its own host.'),
      projectId: ProjectId.optional().describe(
        'The project that invites, role changes and removals act on. Optional for a connection used only to create projects.',
      ),
    }),
    requiredSecrets: ['apiKey'],
  },
  baseUrl: (fields) => regionBaseUrl(fields.region),
  authHeaders: ({ connection, variant }) => {
    const key = connection.secrets.apiKey ?? '';
    const shape = (variant ?? AUTH_SHAPES.bearerProject) as AuthShape;
    if (shape === AUTH_SHAPES.bearerNoProject) return { authorization: `Bearer :${key}` };
    const project = connection.fields.projectId;
    if (!project) {
      // Steps check this before sending; this guard keeps any other caller from sending `Bearer :<key>` by accident.
      throw new InputError(`Connection "${connection.id}" has no projectId; nothing was sent.`, [
        { path: 'connection.projectId', message: 'required for project operations' },
      ]);
    }
    return {
      authorization: shape === AUTH_SHAPES.plainProject ? `${project}:${key}` : `Bearer ${project}:${key}`,
    };
  },
  credentialHeaders: ['authorization'],
  parseError: (body) => {
    if (typeof body === 'string') return body.trim() ? { message: body.trim().slice(0, 300) } : {};
    const parsed = GovernanceErrorBody.safeParse(body);
    return parsed.success && parsed.data.message ? { message: parsed.data.message.slice(0, 500) } : {};
  },
  classifyError: classifyGovernanceError,
  // The spec defines no API Call step for governance: a key that "has access to the full account"
  // behind a free-form request step is more power than these controls need.
  apiCall: { methods: [] },
  paths: governancePaths,
});

/** The project a project-level operation addresses: the connection's, or an InputError before anything is sent. */
export function connectionProject(context: Pick<StepContext, 'connection'>): string {
  const project = context.connection.fields.projectId;
  if (!project) {
    throw new InputError(
      `Connection "${context.connection.id}" has no projectId, which this step needs (the project travels in the Authorization header). Nothing was sent; add it with: toolsteps connections add governance --id ${context.connection.id} --project-id <id> ...`,
      [{ path: 'connection.projectId', message: 'required for project operations' }],
    );
  }
  return project;
}

/**
 * Sends one governance operation: POST, JSON, the operation's path and
 * Authorization shape. `userId` is already validated by the step's schema and
 * is encoded anyway, so no value can reach another path.
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
    ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
  });
}

/**
 * What is known about a governance write that failed, in the shared
 * vocabulary of `src/outcome.ts`: `unknown` when it may have reached the
 * platform and acted (or we cannot tell), `not_sent` when nothing left this
 * machine, `refused` when the platform answered without acting.
 */
export function failedWriteOutcome(error: unknown): Outcome {
  if (mayHaveLanded(error) || !isToolstepsError(error)) return 'unknown';
  if (error.details.sent === false) return 'not_sent';
  // Any answer the transport did not flag as ambiguous (4xx, 503) means the platform did not act.
  return error.status === undefined ? 'unknown' : 'refused';
}

import * as z from 'zod';

import { builtOnce, defineIntegration, InputError } from '../../src/kit/index.js';
import { classifyGovernanceError } from './lib/classify-error.js';
import { ProjectId } from './lib/ids.js';
import { AUTH_SHAPES, type AuthShape, governancePaths } from './lib/operations.js';
import { REGIONS, regionBaseUrl } from './lib/region.js';

const GovernanceErrorBody = builtOnce(() => z.object({ message: z.string().optional() }).loose());

/** The connection's public fields: built when first read (issue 37), not when the catalogue is imported. */
const GovernanceConnectionFields = builtOnce(() =>
  z.object({
    region: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(REGIONS))
      .describe('Region the organization is hosted in: au, eu or us. Each region has its own host.'),
    projectId: ProjectId()
      .optional()
      .describe(
        'The project that invites, role changes and removals act on. Optional for a connection used only to create projects.',
      ),
  }),
);

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
    get fields() {
      return GovernanceConnectionFields();
    },
    requiredSecrets: ['apiKey'],
    revocation: {
      unavailable:
        "an API key: the platform has no revocation endpoint for it; delete the key in the platform's settings if it should stop working",
    },
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
    const parsed = GovernanceErrorBody().safeParse(body);
    return parsed.success && parsed.data.message ? { message: parsed.data.message.slice(0, 500) } : {};
  },
  classifyError: classifyGovernanceError,
  // The spec defines no API Call step for governance: a key that "has access to the full account"
  // behind a free-form request step is more power than these controls need.
  apiCall: { methods: [] },
  paths: governancePaths,
  // Every operation of the spec is a POST that changes something: there is no free read to test a key with.
  connectionCheck: {
    unavailable:
      'The governance API has only writes (every operation is a POST that changes something), so no free read can test the key; it is checked on its first use.',
  },
});

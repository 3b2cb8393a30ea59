import * as z from 'zod';
import { builtOnce, cursorPageOutput, defineStep, OutputError } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  Deployment,
  Environment,
  ProjectRef,
  ReadyState,
  targetForList,
  toDeployment,
} from './lib/deployment-schema.js';
import { environmentOptions, projectOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, requireProjectInScope } from './lib/project-scope.js';

/** A point in time: ISO 8601 date or date-time, or epoch milliseconds (the provider's own unit). */
const Instant = builtOnce(() =>
  z.union([
    z.iso.datetime({ offset: true }),
    z.iso.date(),
    z.number().int().nonnegative().describe('Epoch milliseconds.'),
  ]),
);

function toMs(value: z.infer<ReturnType<typeof Instant>>): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

const Page = builtOnce(() =>
  z.object({
    deployments: z.array(z.unknown()),
    pagination: z
      .object({ count: z.number().optional(), next: z.number().nullable().optional() })
      .loose()
      .optional(),
  }),
);

export const listDeploymentsInput = builtOnce(() =>
  z
    .strictObject({
      project: ProjectRef().optional().describe('Only deployments of this project (name or id).'),
      state: z
        .array(ReadyState())
        .min(1)
        .max(7)
        .optional()
        .describe('Only deployments in one of these states, e.g. ["BUILDING", "QUEUED"].'),
      environment: Environment()
        .optional()
        .describe(
          'Only production or only preview deployments; development lists previews, as that is how it deploys.',
        ),
      since: Instant()
        .optional()
        .describe('Only deployments created after this time (ISO 8601 or epoch ms).'),
      until: Instant()
        .optional()
        .describe('Only deployments created before this time (ISO 8601 or epoch ms).'),
      limit: z.number().int().min(1).max(100).default(20).describe('Deployments per page, 1 to 100.'),
      cursor: z
        .string()
        .regex(/^\d{1,16}$/, 'a next_cursor value from a previous page')
        .optional()
        .describe('next_cursor from the previous page; keep the other filters the same.'),
    })
    .refine(
      (value) =>
        value.since === undefined || value.until === undefined || toMs(value.since) < toMs(value.until),
      { path: ['until'], message: 'until must be later than since' },
    ),
);

export default defineStep({
  id: 'deployments.list_deployments',
  integration: deployments,
  title: 'List Deployments',
  description:
    'List deployments, newest first, optionally filtered by project, state, environment and creation time.',
  agentDescription:
    'Lists deployments newest first, one page at a time. Pass next_cursor back as cursor with the same filters for the next page; has_more says whether there is one. Use it to find deployment ids, to check whether a create went through, or to find builds to cancel (state ["QUEUED", "INITIALIZING", "BUILDING"]). The cursor is the creation time (epoch ms) of the last deployment on the page, and the next page holds only deployments created strictly before it: another deployment created in that same millisecond but cut off by limit is skipped (rare; a larger limit, or the library\'s iterateDeployments, which overlaps pages and drops repeats, avoids it). Read-only and safe to retry.',
  keywords: ['deployments', 'list', 'history', 'builds', 'status', 'recent deploys', 'find deployment'],
  get input() {
    return listDeploymentsInput();
  },
  options: { project: projectOptions, environment: environmentOptions },
  get output() {
    return cursorPageOutput('deployments', Deployment(), {
      items: 'This page of deployments, newest first.',
      cursor:
        'Pass as cursor to get the next page; null on the last page. It is the creation time (epoch ms) of the last deployment on this page; the next page starts strictly before it.',
    });
  },
  access: 'read',
  idempotent: true,
  variables: {
    deployment_ids: '$.deployments[*].id',
    states: '$.deployments[*].state',
    next_cursor: '$.next_cursor',
  },
  examples: [
    {
      title: "The shop's production deployments",
      input: { project: 'shop', environment: 'production', limit: 5 },
    },
  ],
  async run(input, { http, constraints }) {
    requireProjectInScope(input.project, allowedProjects(constraints), 'Listing deployments');
    // The provider pages backwards in time: the next page is "created before
    // pagination.next", so the cursor is simply the next `until`.
    const until = input.cursor ?? (input.until === undefined ? undefined : String(toMs(input.until)));
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('listDeployments'),
      query: {
        limit: input.limit,
        projectId: input.project,
        target: input.environment && targetForList(input.environment),
        state: input.state?.join(','),
        since: input.since === undefined ? undefined : toMs(input.since),
        until,
      },
    });
    const page = Page().safeParse(response.body);
    if (!page.success) {
      throw new OutputError('The provider answered the deployment list without a deployments array.', [
        { path: 'deployments', message: 'missing' },
      ]);
    }
    const next = page.data.pagination?.next ?? null;
    return {
      deployments: page.data.deployments.map((raw, index) => toDeployment(raw, `deployments.${index}`)),
      has_more: next !== null,
      next_cursor: next === null ? null : String(next),
    };
  },
});

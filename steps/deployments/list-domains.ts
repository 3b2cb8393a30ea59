import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { ProjectDomain, toProjectDomain } from './lib/domain-schema.js';
import { projectRequest } from './lib/project-request.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

export default defineStep({
  id: 'deployments.list_domains',
  integration: deployments,
  title: 'List Domains',
  description: "List a project's domains, newest first, with whether each is verified.",
  agentDescription:
    'Lists the domains assigned to a project, newest first, a page at a time (pass next_cursor back as cursor). verified false means the domain does not serve the project yet: verification names the DNS record the user must create. Read-only and safe to retry.',
  keywords: ['domains', 'custom domain', 'hostnames', 'dns', 'list domains'],
  get input() {
    return z.strictObject({
      project: ProjectRef(),
      verified: z.boolean().optional().describe('Only verified (true) or only unverified (false) domains.'),
      ...TimePaging(),
    });
  },
  options: { project: projectOptions },
  get output() {
    return cursorPageOutput('domains', ProjectDomain(), { items: 'This page of domains, newest first.' });
  },
  access: 'read',
  idempotent: true,
  variables: { domains: '$.domains[*].name', next_cursor: '$.next_cursor' },
  examples: [{ title: "The shop's domains", input: { project: 'shop' } }],
  async run(input, context) {
    const body = await projectRequest(context, input.project, 'Listing domains', {
      method: 'GET',
      path: 'projectDomains',
      query: {
        limit: input.limit,
        until: input.cursor,
        verified: input.verified === undefined ? undefined : String(input.verified),
      },
    });
    const { items, has_more, next_cursor } = readTimePage(
      body,
      'domains',
      'a list of domains',
      toProjectDomain,
    );
    return { domains: items, has_more, next_cursor };
  },
});

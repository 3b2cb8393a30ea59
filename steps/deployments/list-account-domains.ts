import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { AccountDomain, toAccountDomain } from './lib/domain-schema.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, refuseAccountWide } from './lib/project-scope.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

export default defineStep({
  id: 'deployments.list_account_domains',
  integration: deployments,
  title: 'List Account Domains',
  description: "List the domains of the connection's team or user, with their nameservers.",
  agentDescription:
    "Lists the domains the account owns or has added (not a project's domains: use List Domains for those), newest first, a page at a time (pass next_cursor back as cursor). Refused when the connection is limited to some projects (account domains are account-wide). Read-only and safe to retry.",
  keywords: ['account domains', 'registered domains', 'nameservers', 'domains', 'dns'],
  get input() {
    return z.strictObject(TimePaging());
  },
  get output() {
    return cursorPageOutput('domains', AccountDomain(), { items: 'This page of domains, newest first.' });
  },
  access: 'read',
  idempotent: true,
  variables: { domains: '$.domains[*].name', next_cursor: '$.next_cursor' },
  examples: [{ title: "The team's domains", input: {} }],
  async run(input, { http, constraints }) {
    refuseAccountWide(allowedProjects(constraints), 'Listing account domains');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('domains'),
      query: { limit: input.limit, until: input.cursor },
    });
    const page = readTimePage(response.body, 'domains', 'a list of domains', toAccountDomain);
    return { domains: page.items, has_more: page.has_more, next_cursor: page.next_cursor };
  },
});

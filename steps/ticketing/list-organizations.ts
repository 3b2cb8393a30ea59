import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { ticketingPath } from './lib/paths.js';
import { Organization } from './lib/people-schema.js';

export default defineStep({
  id: 'ticketing.list_organizations',
  integration: ticketing,
  title: 'List Organizations',
  description: 'List the organizations (customer companies) of the account.',
  agentDescription:
    'Lists organizations one page at a time, oldest first. Pass next_cursor back as cursor for the next page. Read-only and safe to retry.',
  keywords: ['organizations', 'companies', 'customers', 'accounts', 'orgs', 'list'],
  get input() {
    return z.strictObject(CursorPaging());
  },
  get output() {
    return pagedOutput('organizations', Organization(), 'organizations');
  },
  access: 'read',
  idempotent: true,
  variables: { organization_ids: '$.organizations[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'The first organizations', input: { limit: 10 } }],
  async run(input, { http }) {
    return listCursorPage(
      http,
      { path: ticketingPath('organizations'), member: 'organizations', item: Organization() },
      input,
    );
  },
});

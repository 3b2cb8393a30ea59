import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { Group } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';

export default defineStep({
  id: 'ticketing.list_groups',
  integration: ticketing,
  title: 'List Groups',
  description: 'List the groups of agents tickets are assigned to.',
  agentDescription:
    'Lists the groups of agents (teams such as Billing or Support) one page at a time, deleted groups left out; a ticket or organization takes a group id as group_id. Pass next_cursor back as cursor for the next page. Read-only and safe to retry.',
  keywords: ['groups', 'teams', 'queues', 'agent groups', 'departments', 'list'],
  get input() {
    return z.strictObject(CursorPaging());
  },
  get output() {
    return pagedOutput('groups', Group(), 'groups');
  },
  access: 'read',
  idempotent: true,
  variables: { group_ids: '$.groups[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'The first groups', input: { limit: 10 } }],
  async run(input, { http }) {
    return listCursorPage(http, { path: ticketingPath('groups'), member: 'groups', item: Group() }, input);
  },
});

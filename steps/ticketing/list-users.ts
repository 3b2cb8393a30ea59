import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { ticketingPath } from './lib/paths.js';
import { User, UserRole } from './lib/people-schema.js';

export default defineStep({
  id: 'ticketing.list_users',
  integration: ticketing,
  title: 'List Users',
  description: 'List the users of the account, optionally only one role (agents, admins or end users).',
  agentDescription:
    'Lists users one page at a time, oldest first; role narrows to end-user, agent or admin (e.g. role agent to see who tickets can be assigned to). Pass next_cursor back as cursor, with the same role, for the next page. To find someone by name or email use Search Users. Read-only and safe to retry.',
  keywords: ['users', 'agents', 'admins', 'customers', 'end users', 'people', 'team', 'list'],
  get input() {
    return z.strictObject({ role: UserRole().optional(), ...CursorPaging() });
  },
  get output() {
    return pagedOutput('users', User(), 'users');
  },
  access: 'read',
  idempotent: true,
  variables: { user_ids: '$.users[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'The agents', input: { role: 'agent', limit: 10 } }],
  async run(input, { http }) {
    const query = { role: input.role };
    return listCursorPage(
      http,
      { path: ticketingPath('users'), member: 'users', item: User(), query },
      input,
    );
  },
});

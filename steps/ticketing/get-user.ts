import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { User, UserId } from './lib/people-schema.js';
import { getRecord } from './lib/read-member.js';
import { requesterOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_user',
  integration: ticketing,
  title: 'Get User',
  description: 'Read one user: name, email, role, organization, phone and tags.',
  agentDescription:
    'Reads one user (a customer, an agent or an admin) by numeric id. Use Search Users to find an id from a name or email. Read-only and safe to retry.',
  keywords: ['user', 'customer', 'requester', 'agent', 'profile', 'contact', 'person'],
  get input() {
    return z.strictObject({ user_id: UserId() });
  },
  get output() {
    return z.object({ user: User() });
  },
  access: 'read',
  idempotent: true,
  options: { user_id: requesterOptions },
  variables: { user_id: '$.user.id', name: '$.user.name', email: '$.user.email', role: '$.user.role' },
  examples: [{ title: 'Read user 3 (the seeded requester)', input: { user_id: 3 } }],
  async run(input, { http }) {
    return { user: await getRecord(http, ticketingPath('user', input.user_id), 'user', User()) };
  },
});

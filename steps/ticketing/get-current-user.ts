import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { Organization, User } from './lib/people-schema.js';
import { getRecord } from './lib/read-member.js';

export default defineStep({
  id: 'ticketing.get_current_user',
  integration: ticketing,
  title: 'Get Current User',
  description: 'Read the user the connection signs in as: name, email and role.',
  agentDescription:
    'Reads the signed-in user of this connection (users/me): who tickets and comments made through it are from, and whether it is an agent or admin; with_organization also reads their organization. Read-only and safe to retry.',
  keywords: ['me', 'current user', 'whoami', 'signed in', 'my account', 'connection user'],
  get input() {
    return z.strictObject({
      with_organization: z
        .boolean()
        .default(false)
        .describe("True to also read the user's default organization (one more request)."),
    });
  },
  get output() {
    return z.object({
      user: User().describe('The signed-in user.'),
      organization: Organization()
        .nullable()
        .optional()
        .describe('Their default organization when with_organization is true; null when they have none.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { user_id: '$.user.id', email: '$.user.email', role: '$.user.role' },
  examples: [
    { title: 'Who this connection is', input: {} },
    { title: 'Who, and for which organization', input: { with_organization: true } },
  ],
  async run(input, { http }) {
    const user = await getRecord(http, ticketingPath('me'), 'user', User());
    if (!input.with_organization) return { user };
    const id = user.organization_id;
    const path = id ? ticketingPath('organization', id) : undefined;
    return { user, organization: path ? await getRecord(http, path, 'organization', Organization()) : null };
  },
});

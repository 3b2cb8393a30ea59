import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { UserId } from './lib/people-schema.js';
import { requesterOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.delete_user',
  integration: ticketing,
  title: 'Delete User',
  description: 'Delete a user; their tickets stay.',
  agentDescription:
    'Deletes one user: they can no longer sign in and are gone from lists and reads (the provider purges them for good later). Their tickets stay. This cannot be undone through this step; only use when the user explicitly asked to delete this person. To stop someone signing in, use Update User with suspended: true instead.',
  keywords: ['delete user', 'remove user', 'remove customer', 'offboard', 'gdpr'],
  get input() {
    return z.strictObject({ user_id: UserId() });
  },
  get output() {
    return z.object({
      deleted: z.literal(true).describe('Always true: failures are errors.'),
      user_id: z.number().describe('The deleted user id.'),
      already_done: z
        .boolean()
        .describe(
          'True when a retried delete found the user already gone: our earlier attempt deleted them.',
        ),
    });
  },
  access: 'destructive',
  idempotent: true,
  // The first DELETE may have landed before its answer was lost: a 404 on the replay is our own work.
  replay: {
    mode: 'gone_means_done',
    alreadyDone: (input) => ({ deleted: true as const, user_id: input.user_id, already_done: true }),
  },
  options: { user_id: requesterOptions },
  variables: { user_id: '$.user_id' },
  examples: [{ title: 'Delete user 4', input: { user_id: 4 } }],
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: ticketingPath('user', input.user_id) });
    return { deleted: true as const, user_id: input.user_id, already_done: false };
  },
});

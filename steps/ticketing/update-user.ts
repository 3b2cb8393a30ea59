import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { User, UserFields, UserId } from './lib/people-schema.js';
import { readMember } from './lib/read-member.js';
import { organizationOptions, requesterOptions } from './lib/ticketing-options.js';

const CHANGES = [
  'name',
  'email',
  'role',
  'organization_id',
  'phone',
  'external_id',
  'time_zone',
  'tags',
  'notes',
  'suspended',
] as const;

export default defineStep({
  id: 'ticketing.update_user',
  integration: ticketing,
  title: 'Update User',
  description: "Change a user's name, email, role, organization, phone, tags or notes, or suspend them.",
  agentDescription:
    "Changes the fields given and leaves the others. tags replaces the user's whole tag set. Changing role to agent or admin may cost a seat; suspended: true stops the user signing in. Sets values only, so repeating it is harmless.",
  keywords: ['edit user', 'change email', 'rename', 'move organization', 'suspend user', 'promote agent'],
  get input() {
    return z
      .strictObject({
        user_id: UserId(),
        name: z.string().trim().min(1).max(255).optional().describe('New full name.'),
        email: UserFields().email.optional(),
        role: UserFields().role.optional(),
        organization_id: UserFields()
          .organization_id.nullable()
          .optional()
          .describe('Default organization of the user; null to clear.'),
        phone: UserFields().phone.optional(),
        external_id: UserFields().external_id.optional(),
        time_zone: UserFields().time_zone.optional(),
        tags: UserFields().tags.optional(),
        notes: UserFields().notes.optional(),
        suspended: z
          .boolean()
          .optional()
          .describe('True to stop the user signing in and submitting tickets.'),
      })
      .refine((value) => CHANGES.some((field) => value[field] !== undefined), {
        message: `give at least one change: ${CHANGES.join(', ')}`,
      });
  },
  get output() {
    return z.object({ user: User().describe('The user after the change.') });
  },
  access: 'write',
  // It sets fields to given values: sent twice, it leaves the user as sent once.
  idempotent: true,
  options: { user_id: requesterOptions, organization_id: organizationOptions },
  variables: { user_id: '$.user.id', email: '$.user.email', role: '$.user.role' },
  examples: [{ title: 'Give user 3 a phone number', input: { user_id: 3, phone: '+61 2 5550 1234' } }],
  async run(input, { http }) {
    const { user_id: userId, ...changes } = input;
    const path = ticketingPath('user', userId);
    const response = await http.request({ method: 'PUT', path, body: { user: definedOnly(changes) } });
    return { user: readMember(response.body, 'user', User(), `PUT ${path}`) };
  },
});

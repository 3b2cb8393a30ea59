import * as z from 'zod';
import { builtOnce, NumericId } from '../../../src/kit/index.js';

/** The provider's three built-in roles (custom agent roles still report `agent`). */
export const UserRole = builtOnce(() =>
  z
    .enum(['end-user', 'agent', 'admin'])
    .describe('end-user (a customer), agent (works tickets) or admin (also manages the account).'),
);

export const UserId = builtOnce(() =>
  NumericId().describe('The numeric user id, as List Users or Search Users returns it.'),
);
export const OrganizationId = builtOnce(() =>
  NumericId().describe('The numeric organization id, as List Organizations returns it.'),
);

const nullableText = builtOnce(() => z.string().nullable().optional());
const Tags = builtOnce(() => z.array(z.string()).default([]).describe('Tags on the record.'));

/** A user as the provider describes it (UserObject), the fields people and agents act on. */
export const User = builtOnce(() =>
  z.object({
    id: z.number().describe('User id.'),
    name: z.string().describe('Display name.'),
    email: nullableText().describe('Primary email address.'),
    role: z.string().describe('end-user, agent or admin.'),
    organization_id: z.number().nullable().optional().describe('Default organization of the user.'),
    external_id: nullableText().describe('Your own id for the user, if set.'),
    phone: nullableText().describe('Primary phone number.'),
    time_zone: nullableText().describe('Time zone name.'),
    suspended: z.boolean().optional().describe('True when the user cannot sign in or submit tickets.'),
    tags: Tags(),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);

/** An organization as the provider describes it (OrganizationObject). */
export const Organization = builtOnce(() =>
  z.object({
    id: z.number().describe('Organization id.'),
    name: z.string().describe('Unique name.'),
    domain_names: z.array(z.string()).default([]).describe('Email domains whose users join it.'),
    details: nullableText().describe('Details such as an address.'),
    notes: nullableText().describe('Notes about the organization.'),
    group_id: z.number().nullable().optional().describe('Group new tickets of its users go to.'),
    external_id: nullableText().describe('Your own id for the organization, if set.'),
    tags: Tags(),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);

/** The writable fields of a user, shared by Create User and Update User. */
export const UserFields = builtOnce(
  () =>
    ({
      email: z.email().max(254).describe('Primary email address; unique in the account.'),
      role: UserRole(),
      organization_id: z.number().int().positive().describe('Default organization of the user.'),
      phone: z.string().min(1).max(50).describe('Primary phone number.'),
      external_id: z.string().min(1).max(255).describe('Your own id for the user.'),
      time_zone: z.string().min(1).max(100).describe('Time zone name, e.g. Sydney.'),
      tags: z
        .array(z.string().min(1).max(80).regex(/^\S+$/, 'tags cannot contain spaces'))
        .max(100)
        .describe('Tags (single words); replace the set.'),
      notes: z.string().max(5000).describe('Notes agents see about the user.'),
    }) as const,
);

import * as z from 'zod';
import { builtOnce, NumericId } from '../../../src/kit/index.js';

/** Provider enums (Zendesk Support API v2). */
export const TicketStatus = builtOnce(() =>
  z
    .enum(['new', 'open', 'pending', 'hold', 'solved', 'closed'])
    .describe('Ticket status: new, open, pending, hold, solved or closed.'),
);
export const TicketPriority = builtOnce(() =>
  z.enum(['low', 'normal', 'high', 'urgent']).describe('Ticket priority.'),
);
export const TicketType = builtOnce(() =>
  z.enum(['problem', 'incident', 'question', 'task']).describe('Ticket type.'),
);

/** A number, or a string of digits: nothing else is coerced (`true` and `"0x10"` are not ticket 1 and 16). */
export const TicketId = builtOnce(() =>
  NumericId().describe(
    'The numeric ticket id, as returned by Create Ticket, List Tickets or Search Tickets.',
  ),
);

/** A user id or an email address: the provider takes either for assignees. */
export const Assignee = builtOnce(() =>
  z
    .union([z.number().int().positive(), z.email()])
    .describe("The agent to assign: a numeric user id or the agent's email address."),
);

export const CustomFields = builtOnce(() =>
  z
    .array(
      z.object({
        id: z.number().int().positive().describe('Custom field id.'),
        value: z.unknown().describe('Field value: string, number, boolean, list of tags, or null to clear.'),
      }),
    )
    .describe('Custom ticket fields by their field identifiers.'),
);

/** Tokens the provider's upload endpoint answers (`POST /api/v2/uploads.json?filename=...`, through the API Call step). */
export const UploadTokens = builtOnce(() =>
  z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'an upload token'))
    .min(1)
    .max(25)
    .describe(
      'Upload tokens from POST /api/v2/uploads.json?filename=<name> (Ticketing API Call with body_file or body_base64); their files are attached to the comment.',
    ),
);

export const Tags = builtOnce(() =>
  z
    .array(z.string().min(1).max(80).regex(/^\S+$/, 'tags cannot contain spaces'))
    .describe('Tags (single words).'),
);

const nullableNumber = builtOnce(() => z.number().nullable().optional());

export const Ticket = builtOnce(() =>
  z.object({
    id: z.number().describe('Ticket id.'),
    url: z.string().optional().describe('API URL of the ticket.'),
    external_id: z.string().nullable().optional().describe('Your own id for the ticket, if set.'),
    type: TicketType().nullable().optional(),
    subject: z.string().nullable().optional().describe('Subject line.'),
    description: z.string().nullable().optional().describe('First comment of the ticket.'),
    priority: TicketPriority().nullable().optional(),
    status: TicketStatus(),
    requester_id: nullableNumber().describe('User who asked.'),
    submitter_id: nullableNumber().describe('User who submitted.'),
    assignee_id: nullableNumber().describe('Agent assigned, if any.'),
    organization_id: nullableNumber().describe('Organization of the requester.'),
    group_id: nullableNumber().describe('Group assigned.'),
    collaborator_ids: z.array(z.number()).default([]).describe("Users CC'd on the ticket."),
    follower_ids: z.array(z.number()).default([]).describe('Agents following the ticket.'),
    due_at: z.string().nullable().optional().describe('Due date of a task ticket (ISO 8601), if any.'),
    tags: z.array(z.string()).default([]).describe('Tags on the ticket.'),
    custom_fields: z
      .array(z.object({ id: z.number(), value: z.unknown() }))
      .default([])
      .describe('Custom field values.'),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);
export type Ticket = z.infer<ReturnType<typeof Ticket>>;

export const Comment = builtOnce(() =>
  z.object({
    id: z.number().describe('Comment id.'),
    author_id: z.number().nullable().optional().describe('User who wrote it.'),
    body: z.string().describe('Plain-text body.'),
    public: z.boolean().describe('False for an internal note only agents see.'),
    created_at: z.string().optional().describe('ISO 8601 time.'),
  }),
);

export const UserSummary = builtOnce(() =>
  z.object({
    id: z.number().describe('User id.'),
    name: z.string().nullable().optional().describe('Display name.'),
    email: z.string().nullable().optional().describe('Email address.'),
    role: z.string().nullable().optional().describe('end-user, agent or admin.'),
  }),
);

const PositiveId = builtOnce(() => z.number().int().positive());
const UserIds = builtOnce(() => z.array(PositiveId()).min(1).max(50));

/** ISO 8601 date-time with a zone, as the provider's `due_at` and `updated_at` are written. */
export const IsoDateTime = builtOnce(() => z.iso.datetime({ offset: true }));

/**
 * The people and routing fields both Create Ticket and Update Ticket set:
 * sent under the provider's own names.
 */
export const TicketRoutingFields = builtOnce(() => ({
  requester_id: PositiveId().describe('The user who asks (a customer); see Search Users.'),
  group_id: PositiveId().describe('The group (team) the ticket is assigned to.'),
  organization_id: PositiveId().describe(
    "The requester's organization the ticket belongs to (one the requester is a member of).",
  ),
  due_at: IsoDateTime().describe('Due date, for tickets of type task (ISO 8601 date-time).'),
}));

/** Followers (agents kept informed) and collaborators (CCs), by user id. */
export const PeopleIds = builtOnce(() => ({
  followers: UserIds().describe('Agents who follow the ticket (user ids).'),
  collaborators: UserIds().describe("Users CC'd on the ticket's public replies (user ids)."),
}));

/** The provider takes an assignee as `assignee_id` or `assignee_email`. */
export function assigneeFields(
  assignee: z.infer<ReturnType<typeof Assignee>> | undefined,
): Record<string, unknown> {
  if (assignee === undefined) return {};
  return typeof assignee === 'number' ? { assignee_id: assignee } : { assignee_email: assignee };
}

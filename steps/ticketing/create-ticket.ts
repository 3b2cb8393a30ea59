import * as z from 'zod';
import { builtOnce, definedOnly, defineStep, type HttpClient } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { customFieldSchema } from './lib/custom-field-schema.js';
import { ticketingPath } from './lib/paths.js';
import {
  Assignee,
  assigneeFields,
  CustomFields,
  PeopleIds,
  Tags,
  Ticket,
  TicketPriority,
  TicketRoutingFields,
  TicketType,
  UploadTokens,
} from './lib/ticket-schema.js';
import {
  assigneeOptions,
  groupOptions,
  organizationOptions,
  requesterOptions,
  tagOptions,
  ticketFormOptions,
} from './lib/ticketing-options.js';

const ListedTickets = builtOnce(() => z.object({ tickets: z.array(Ticket()) }));

export default defineStep({
  id: 'ticketing.create_ticket',
  integration: ticketing,
  title: 'Create Ticket',
  description:
    'Create a support ticket with a subject, a description, and optional priority, type, requester, assignee, group, organization, due date, followers, CCs and tags.',
  agentDescription:
    'Creates a new ticket. Not idempotent: if the call fails in a way that may have reached the provider it is not retried. Pass external_id (your own unique id for this request) so a retry can find the ticket instead of creating a duplicate: with external_id set, the step looks the ticket up before creating and after an ambiguous failure, so calling it again with the same external_id never makes a duplicate. Use Update Ticket to change an existing ticket.',
  keywords: ['new ticket', 'open ticket', 'file', 'raise', 'report issue', 'create'],
  get input() {
    return (
      z
        .strictObject({
          subject: z.string().trim().min(1).max(1000).describe('Subject line of the ticket.'),
          description: z.string().min(1).max(65_000).describe('The first comment: what the requester needs.'),
          priority: TicketPriority().optional(),
          type: TicketType().optional(),
          assignee: Assignee().optional(),
          external_id: z
            .string()
            .min(1)
            .max(255)
            .optional()
            .describe('Your own unique id for this ticket; makes a retried create safe to reconcile.'),
          tags: Tags().optional(),
          custom_fields: CustomFields().optional(),
          upload_tokens: UploadTokens().optional(),
          ticket_form_id: z
            .number()
            .int()
            .positive()
            .optional()
            .describe('The ticket form the ticket is filed under.'),
          requester_id: TicketRoutingFields().requester_id.optional(),
          group_id: TicketRoutingFields().group_id.optional(),
          organization_id: TicketRoutingFields().organization_id.optional(),
          due_at: TicketRoutingFields().due_at.optional(),
          followers: PeopleIds().followers.optional(),
          collaborators: PeopleIds().collaborators.optional(),
        })
        // The provider keeps a due date only on tasks.
        .refine((value) => value.due_at === undefined || value.type === 'task', {
          path: ['due_at'],
          message: 'due_at is for tickets of type task: give type "task" too',
        })
    );
  },
  get output() {
    return z.object({
      ticket: Ticket().describe('The ticket as created.'),
      recovered: z
        .boolean()
        .describe('True when the create failed ambiguously and the ticket was found by its external_id.'),
    });
  },
  access: 'write',
  idempotent: false,
  // external_id is the provider's natural handle: a create that landed is found by it, before
  // creating (a caller's retry) and by the runtime after an ambiguous failure (our own attempt).
  replay: {
    mode: 'reconcile',
    find: (input, { http }) => findByExternalId(http, input.external_id),
    // Not found yet does not prove nothing was created: the first request may still be in progress.
    hint: (input) =>
      input.external_id
        ? 'The ticket may or may not have been created. Call Create Ticket again with the same external_id: it looks the ticket up before creating, so it will not make a duplicate.'
        : undefined,
  },
  variables: { ticket_id: '$.ticket.id', status: '$.ticket.status' },
  options: {
    assignee: assigneeOptions,
    tags: tagOptions,
    ticket_form_id: ticketFormOptions,
    requester_id: requesterOptions,
    group_id: groupOptions,
    organization_id: organizationOptions,
    // Followers are agents; CCs can be anyone.
    followers: assigneeOptions,
    collaborators: requesterOptions,
  },
  accountSchema: customFieldSchema,
  examples: [
    {
      title: 'Open a ticket that a retry cannot duplicate',
      input: {
        subject: 'VPN down',
        description: 'Nobody in the Sydney office can connect.',
        priority: 'high',
        external_id: 'req-8812',
      },
    },
  ],
  async run(input, { http }) {
    const ticket = definedOnly({
      subject: input.subject,
      comment: definedOnly({ body: input.description, uploads: input.upload_tokens }),
      priority: input.priority,
      type: input.type,
      ...assigneeFields(input.assignee),
      external_id: input.external_id,
      tags: input.tags,
      custom_fields: input.custom_fields,
      requester_id: input.requester_id,
      group_id: input.group_id,
      organization_id: input.organization_id,
      due_at: input.due_at,
      follower_ids: input.followers,
      collaborator_ids: input.collaborators,
      ticket_form_id: input.ticket_form_id,
    });
    const existing = await findByExternalId(http, input.external_id);
    if (existing) return existing;
    const response = await http.request<{ ticket: unknown }>({
      method: 'POST',
      path: ticketingPath('tickets'),
      body: { ticket },
    });
    return { ticket: response.body.ticket as z.infer<ReturnType<typeof Ticket>>, recovered: false };
  },
});

/** The ticket an earlier create with this external_id made, as this step's output; undefined when none (or no id). */
async function findByExternalId(http: HttpClient, externalId: string | undefined) {
  if (!externalId) return undefined;
  const found = await http.request({
    method: 'GET',
    path: ticketingPath('tickets'),
    query: { external_id: externalId },
  });
  const existing = ListedTickets().safeParse(found.body);
  const ticket = existing.success ? existing.data.tickets[0] : undefined;
  return ticket ? { ticket, recovered: true } : undefined;
}

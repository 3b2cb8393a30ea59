import { z } from 'zod';
import { isToolstepsError } from '../../src/errors.js';
import { mayHaveLanded } from '../../src/outcome.js';
import { defineStep } from '../../src/step.js';
import { ticketing, ticketingPath } from './index.js';
import {
  Assignee,
  assigneeFields,
  CustomFields,
  Tags,
  Ticket,
  TicketPriority,
  TicketType,
} from './ticket-schema.js';

const ListedTickets = z.object({ tickets: z.array(Ticket) });

export default defineStep({
  id: 'ticketing.create_ticket',
  integration: ticketing,
  title: 'Create Ticket',
  description:
    'Create a support ticket with a subject, a description, and optional priority, type, assignee and tags.',
  agentDescription:
    'Creates a new ticket. Not idempotent: if the call fails in a way that may have reached the provider it is not retried. Pass external_id (your own unique id for this request) so a retry can find the ticket instead of creating a duplicate: with external_id set, an ambiguous failure is resolved by looking the ticket up. Use Update Ticket to change an existing ticket.',
  keywords: ['new ticket', 'open ticket', 'file', 'raise', 'report issue', 'create'],
  input: z.object({
    subject: z.string().trim().min(1).max(1000).describe('Subject line of the ticket.'),
    description: z.string().min(1).max(65_000).describe('The first comment: what the requester needs.'),
    priority: TicketPriority.optional(),
    type: TicketType.optional(),
    assignee: Assignee.optional(),
    external_id: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('Your own unique id for this ticket; makes a retried create safe to reconcile.'),
    tags: Tags.optional(),
    custom_fields: CustomFields.optional(),
  }),
  output: z.object({
    ticket: Ticket.describe('The ticket as created.'),
    recovered: z
      .boolean()
      .describe('True when the create failed ambiguously and the ticket was found by its external_id.'),
  }),
  access: 'write',
  idempotent: false,
  variables: { ticket_id: '$.ticket.id', status: '$.ticket.status' },
  async run(input, { http }) {
    const ticket = {
      subject: input.subject,
      comment: { body: input.description },
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.type ? { type: input.type } : {}),
      ...assigneeFields(input.assignee),
      ...(input.external_id ? { external_id: input.external_id } : {}),
      ...(input.tags ? { tags: input.tags } : {}),
      ...(input.custom_fields ? { custom_fields: input.custom_fields } : {}),
    };
    try {
      const response = await http.request<{ ticket: unknown }>({
        method: 'POST',
        path: ticketingPath('tickets'),
        body: { ticket },
      });
      return { ticket: Ticket.parse(response.body.ticket), recovered: false };
    } catch (error) {
      if (!mayHaveLanded(error) || !isToolstepsError(error)) throw error;
      if (input.external_id) {
        // external_id is the provider's natural handle: ask whether the first send landed.
        const found = await http.request({
          method: 'GET',
          path: ticketingPath('tickets'),
          query: { external_id: input.external_id },
        });
        const existing = ListedTickets.safeParse(found.body);
        const ticketFound = existing.success ? existing.data.tickets[0] : undefined;
        if (ticketFound) return { ticket: ticketFound, recovered: true };
        error.details.outcome = 'not_created';
        error.details.hint =
          'No ticket with this external_id exists: it is safe to call Create Ticket again.';
      } else {
        error.details.outcome = 'unknown';
        error.details.hint =
          'The ticket may or may not have been created. Search for it before trying again, or pass external_id next time.';
      }
      throw error;
    }
  },
});

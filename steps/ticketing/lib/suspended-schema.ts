import * as z from 'zod';
import { builtOnce, NumericId } from '../../../src/kit/index.js';

export const SuspendedTicketId = builtOnce(() =>
  NumericId().describe('The numeric suspended ticket id, as List Suspended Tickets returns it.'),
);

/** An email held back instead of becoming a ticket (SuspendedTicketObject). */
export const SuspendedTicket = builtOnce(() =>
  z.object({
    id: z.number().describe('Suspended ticket id.'),
    subject: z.string().nullable().optional().describe('Subject of the email.'),
    content: z.string().nullable().optional().describe('The text that was held back.'),
    cause: z.string().nullable().optional().describe('Why it was held, e.g. Detected as spam.'),
    author: z
      .object({
        id: z.number().nullable().optional(),
        name: z.string().nullable().optional(),
        email: z.string().nullable().optional(),
      })
      .optional()
      .describe('Who sent it: their user id when known, name and email.'),
    recipient: z.string().nullable().optional().describe('The address it was sent to.'),
    ticket_id: z.number().nullable().optional().describe('The ticket it would have updated, if any.'),
    created_at: z.string().optional().describe('ISO 8601 time it was held.'),
  }),
);

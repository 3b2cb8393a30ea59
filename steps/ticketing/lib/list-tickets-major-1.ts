import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { Assignee, TicketPriority, TicketStatus } from './ticket-schema.js';

/** A day or a date-time, as the provider's search language takes it after `created>` and `created<`. */
export const IsoDate = builtOnce(() =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
      'an ISO 8601 date or date-time',
    ),
);

/**
 * List Tickets' input as major 1 released it (1.0), kept so that what
 * builders saved on major 1 keeps validating: the creation range as two
 * loose top-level fields, checked against each other by a refinement on
 * the whole input. Major 2 holds the range as one `created` object.
 */
export const ListTicketsInputMajor1 = builtOnce(() =>
  z
    .strictObject({
      status: TicketStatus().optional(),
      priority: TicketPriority().optional(),
      assignee: Assignee().optional(),
      created_after: IsoDate().optional().describe('Only tickets created after this date (ISO 8601).'),
      created_before: IsoDate().optional().describe('Only tickets created before this date (ISO 8601).'),
      limit: z.number().int().min(1).max(100).default(25).describe('Tickets per page, 1 to 100.'),
      cursor: z.string().min(1).max(2000).optional().describe('next_cursor from the previous page.'),
    })
    .refine(
      (value) => !value.created_after || !value.created_before || value.created_after < value.created_before,
      { path: ['created_before'], message: 'created_before must be later than created_after' },
    ),
);

/** Major 1's input in major 2's form: the two range fields become `created`, present only when one was given. */
export function upgradeListTicketsInput(input: z.output<ReturnType<typeof ListTicketsInputMajor1>>) {
  const { created_after, created_before, ...rest } = input;
  if (created_after === undefined && created_before === undefined) return rest;
  const created: { after?: string; before?: string } = {};
  if (created_after !== undefined) created.after = created_after;
  if (created_before !== undefined) created.before = created_before;
  return { ...rest, created };
}

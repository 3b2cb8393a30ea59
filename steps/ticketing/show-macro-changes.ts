import * as z from 'zod';
import { builtOnce, defineStep, readAnswer } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { MacroId } from './lib/macro-schema.js';
import { macroApplyPath } from './lib/paths.js';
import { TicketId } from './lib/ticket-schema.js';
import { macroOptions, ticketOptions } from './lib/ticketing-options.js';

/** The fields the macro would set (MacroApplyTicketResponse's ticket), passed through as the provider names them. */
const Changes = builtOnce(() =>
  z.looseObject({
    id: z.number().optional(),
    comment: z
      .object({
        body: z.string().optional(),
        html_body: z.string().optional(),
        public: z.boolean().optional(),
      })
      .optional(),
  }),
);

export default defineStep({
  id: 'ticketing.show_macro_changes',
  integration: ticketing,
  title: 'Show Macro Changes for a Ticket',
  description: 'Show what a macro would change on a ticket, without changing it.',
  agentDescription:
    'Shows the changes a macro would make to one ticket (status, priority, group, assignee, tags, the reply it would add as comment) WITHOUT saving anything. To apply them, pass the fields to Update Ticket, with if_updated_at from Get Ticket Info as the collision guard. Read-only and safe to retry.',
  keywords: ['apply macro', 'macro preview', 'canned response', 'macro changes'],
  get input() {
    return z.strictObject({ ticket_id: TicketId(), macro_id: MacroId() });
  },
  get output() {
    return z.object({
      ticket_id: z.number().describe('The ticket the changes are for.'),
      changes: z
        .record(z.string(), z.unknown())
        .describe(
          'Each field the macro would set, and its value; comment is the reply it would add. Nothing is saved.',
        ),
    });
  },
  access: 'read',
  idempotent: true,
  options: { ticket_id: ticketOptions, macro_id: macroOptions },
  variables: { changes: '$.changes' },
  examples: [
    { title: 'What macro 360111001 would do to ticket 1', input: { ticket_id: 1, macro_id: 360111001 } },
  ],
  async run(input, { http }) {
    const path = macroApplyPath(input.ticket_id, input.macro_id);
    const response = await http.request({ method: 'GET', path });
    const answer = readAnswer(
      z.object({ result: z.object({ ticket: Changes() }) }),
      response.body,
      `GET ${path}`,
    );
    const { id: _id, url: _url, ...changes } = answer.result.ticket as Record<string, unknown>;
    return { ticket_id: input.ticket_id, changes };
  },
});

import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { TicketForm, TicketFormId } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';
import { getRecord } from './lib/read-member.js';
import { ticketFormOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_ticket_form',
  integration: ticketing,
  title: 'Get Ticket Form',
  description: 'Read one ticket form: its names and the fields it shows.',
  agentDescription:
    'Reads one ticket form by id: the name agents and end users see and the ids of the fields it shows, in order (read them with Get Ticket Field). Read-only and safe to retry.',
  keywords: ['ticket form', 'form', 'request type'],
  get input() {
    return z.strictObject({ ticket_form_id: TicketFormId() });
  },
  get output() {
    return z.object({ ticket_form: TicketForm().describe('The form.') });
  },
  access: 'read',
  idempotent: true,
  options: { ticket_form_id: ticketFormOptions },
  variables: { ticket_form_id: '$.ticket_form.id', name: '$.ticket_form.name' },
  examples: [{ title: 'Read the default form', input: { ticket_form_id: 5001 } }],
  async run(input, { http }) {
    const path = ticketingPath('ticketForm', input.ticket_form_id);
    return { ticket_form: await getRecord(http, path, 'ticket_form', TicketForm()) };
  },
});

import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { TicketField, TicketFieldId } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';
import { getRecord } from './lib/read-member.js';
import { ticketFieldOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_ticket_field',
  integration: ticketing,
  title: 'Get Ticket Field',
  description: 'Read one ticket field: its type, title and dropdown choices.',
  agentDescription:
    "Reads one ticket field by id: type, title, whether it is required, and a dropdown's choices (name shown, value stored: custom_fields take the value). Read-only and safe to retry.",
  keywords: ['ticket field', 'custom field', 'field choices', 'dropdown options'],
  get input() {
    return z.strictObject({ ticket_field_id: TicketFieldId() });
  },
  get output() {
    return z.object({ ticket_field: TicketField().describe('The field.') });
  },
  access: 'read',
  idempotent: true,
  options: { ticket_field_id: ticketFieldOptions },
  variables: { ticket_field_id: '$.ticket_field.id', title: '$.ticket_field.title' },
  examples: [{ title: 'Read field 900001 (Subject)', input: { ticket_field_id: 900001 } }],
  async run(input, { http }) {
    const path = ticketingPath('ticketField', input.ticket_field_id);
    return { ticket_field: await getRecord(http, path, 'ticket_field', TicketField()) };
  },
});

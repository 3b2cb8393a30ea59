import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { editTicketTags, TicketTagsInput, TicketTagsOutput, ticketTagsStep } from './lib/ticket-tags.js';

export default defineStep({
  id: 'ticketing.remove_tags',
  integration: ticketing,
  title: 'Remove Tags',
  description: 'Remove some tags from a ticket, keeping the others.',
  agentDescription:
    "Removes only the tags named from one ticket; its other tags stay. Removing a tag the ticket does not have changes nothing, so a retry is harmless. Answers the ticket's whole tag set.",
  keywords: ['remove tag', 'untag', 'delete tag', 'clear label'],
  get input() {
    return TicketTagsInput();
  },
  get output() {
    return TicketTagsOutput();
  },
  ...ticketTagsStep,
  examples: [{ title: 'Take the vip tag off ticket 1', input: { ticket_id: 1, tags: ['vip'] } }],
  async run(input, { http }) {
    return editTicketTags(http, 'DELETE', input);
  },
});

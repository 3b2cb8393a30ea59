import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { editTicketTags, TicketTagsInput, TicketTagsOutput, ticketTagsStep } from './lib/ticket-tags.js';

export default defineStep({
  id: 'ticketing.add_tags',
  integration: ticketing,
  title: 'Add Tags',
  description: 'Add tags to a ticket, keeping the tags it has.',
  agentDescription:
    "Adds the tags named to one ticket; its other tags stay (unlike Update Ticket's replace_tags). Tags are single words, lower-cased by the provider. Adding a tag the ticket has changes nothing, so a retry is harmless. Answers the ticket's whole tag set.",
  keywords: ['add tag', 'tag ticket', 'label', 'categorize', 'append tags'],
  get input() {
    return TicketTagsInput();
  },
  get output() {
    return TicketTagsOutput();
  },
  ...ticketTagsStep,
  examples: [{ title: 'Tag ticket 1 as vip', input: { ticket_id: 1, tags: ['vip'] } }],
  async run(input, { http }) {
    return editTicketTags(http, 'PUT', input);
  },
});

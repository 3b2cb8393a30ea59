import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { readOffsetPage } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';
import { View } from './lib/view-schema.js';

export default defineStep({
  id: 'ticketing.list_views',
  integration: ticketing,
  title: 'List Views',
  description: 'List the active views (saved ticket filters) the connected user can see.',
  agentDescription:
    'Lists the active views (saved ticket filters such as "Unassigned tickets" or "Urgent") in the account\'s order, with their conditions; List Tickets in a View takes a view id. 100 per page; pass next_page back as page. Read-only and safe to retry.',
  keywords: ['views', 'saved filters', 'queues', 'ticket views', 'list'],
  get input() {
    return z.strictObject({
      page: z.number().int().min(1).max(100).default(1).describe('Page number, from next_page.'),
    });
  },
  get output() {
    return z.object({
      views: z.array(View()).describe('The active views of this page.'),
      next_page: z.number().nullable().describe('The next page number, or null on the last page.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { view_ids: '$.views[*].id' },
  examples: [{ title: 'The active views', input: {} }],
  async run(input, { http }) {
    const page = await readOffsetPage(http, {
      path: ticketingPath('activeViews'),
      member: 'views',
      item: View(),
      page: input.page,
    });
    return { views: page.items, next_page: page.next_page };
  },
});

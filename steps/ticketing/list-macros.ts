import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { readOffsetPage } from './lib/directory-schema.js';
import { Macro, macroCategory } from './lib/macro-schema.js';
import { ticketingPath } from './lib/paths.js';

export default defineStep({
  id: 'ticketing.list_macros',
  integration: ticketing,
  title: 'List Macros',
  description:
    'List the macros (canned actions and replies), active ones by default, optionally of one category.',
  agentDescription:
    'Lists macros: canned sets of ticket changes and replies agents apply in one go, with their actions. Active ones only unless active_only is false; category keeps those whose title starts with "<category>::" (the provider writes categories into titles, e.g. Billing::Refund issued). 100 per page; pass next_page back as page. Show Macro Changes previews one on a ticket. Read-only and safe to retry.',
  keywords: ['macros', 'canned responses', 'templates', 'saved replies', 'list'],
  get input() {
    return z.strictObject({
      active_only: z.boolean().default(true).describe('False to include macros switched off.'),
      category: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('Only macros of this category (case does not count).'),
      page: z.number().int().min(1).max(100).default(1).describe('Page number, from next_page.'),
    });
  },
  get output() {
    return z.object({
      macros: z.array(Macro()).describe('The macros of this page.'),
      next_page: z.number().nullable().describe('The next page number, or null on the last page.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { macro_ids: '$.macros[*].id' },
  examples: [{ title: 'The active Billing macros', input: { category: 'Billing' } }],
  async run(input, { http }) {
    const path = input.active_only ? `${ticketingPath('macros')}?active=true` : ticketingPath('macros');
    const page = await readOffsetPage(http, { path, member: 'macros', item: Macro(), page: input.page });
    const wanted = input.category?.trim().toLowerCase();
    const macros = wanted
      ? page.items.filter((macro) => macroCategory(macro.title)?.toLowerCase() === wanted)
      : page.items;
    return { macros, next_page: page.next_page };
  },
});

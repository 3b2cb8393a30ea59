import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { macroCategoryOptions } from './lib/macro-options.js';
import { macroFilters, macroPage, readMacroPage } from './lib/macro-schema.js';
import { ticketingPath } from './lib/paths.js';

export default defineStep({
  id: 'ticketing.search_macros',
  integration: ticketing,
  title: 'Search Macros',
  description:
    'Find macros (canned actions and replies) whose title matches words, active ones by default, optionally of one category.',
  agentDescription:
    'Searches macros by title (`macros/search`): query is words of the title, e.g. "refund". Active ones only unless active_only is false; category keeps those whose title starts with "<category>::" (e.g. Billing). 100 per page, alphabetical; pass next_page back as page. Use List Macros to see them all, Show Macro Changes to preview one on a ticket. Read-only and safe to retry.',
  keywords: ['macros', 'search macros', 'find macro', 'canned responses', 'templates', 'saved replies'],
  get input() {
    return z.strictObject({
      query: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .describe('Words of the macro title to look for, e.g. "refund".'),
      ...macroFilters(),
    });
  },
  get output() {
    return macroPage();
  },
  access: 'read',
  idempotent: true,
  options: { category: macroCategoryOptions },
  variables: { macro_ids: '$.macros[*].id', first_macro_id: '$.macros[0].id' },
  examples: [{ title: 'The active macros about refunds', input: { query: 'refund' } }],
  run: (input, { http }) => readMacroPage(http, ticketingPath('macrosSearch'), input, { query: input.query }),
});

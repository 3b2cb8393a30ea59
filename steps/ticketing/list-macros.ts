import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { macroCategoryOptions } from './lib/macro-options.js';
import { macroFilters, macroPage, readMacroPage } from './lib/macro-schema.js';
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
    return z.strictObject(macroFilters());
  },
  get output() {
    return macroPage();
  },
  access: 'read',
  idempotent: true,
  options: { category: macroCategoryOptions },
  variables: { macro_ids: '$.macros[*].id' },
  examples: [{ title: 'The active Billing macros', input: { category: 'Billing' } }],
  run: (input, { http }) => readMacroPage(http, ticketingPath('macros'), input),
});

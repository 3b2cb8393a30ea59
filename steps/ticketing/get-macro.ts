import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { Macro, MacroId } from './lib/macro-schema.js';
import { ticketingPath } from './lib/paths.js';
import { getRecord } from './lib/read-member.js';
import { macroOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_macro',
  integration: ticketing,
  title: 'Get Macro',
  description: 'Read one macro: its title and the actions it applies.',
  agentDescription:
    'Reads one macro by numeric id with the actions it applies (fields it sets, the reply it adds). A deleted macro is NotFoundError. Read-only and safe to retry.',
  keywords: ['macro', 'canned response', 'template'],
  get input() {
    return z.strictObject({ macro_id: MacroId() });
  },
  get output() {
    return z.object({ macro: Macro().describe('The macro.') });
  },
  access: 'read',
  idempotent: true,
  options: { macro_id: macroOptions },
  variables: { macro_id: '$.macro.id', title: '$.macro.title' },
  examples: [{ title: 'Read macro 360111001 (Billing::Refund issued)', input: { macro_id: 360111001 } }],
  async run(input, { http }) {
    return { macro: await getRecord(http, ticketingPath('macro', input.macro_id), 'macro', Macro()) };
  },
});

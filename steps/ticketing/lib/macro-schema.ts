import * as z from 'zod';
import { builtOnce, NumericId } from '../../../src/kit/index.js';

export const MacroId = builtOnce(() =>
  NumericId.describe('The numeric macro id, as List Macros returns it.'),
);

/** A macro (MacroObject): actions agents apply to a ticket in one go. */
export const Macro = builtOnce(() =>
  z.object({
    id: z.number().describe('Macro id.'),
    title: z.string().describe('Title; a category is the part before "::" (Billing::Refund issued).'),
    description: z.string().nullable().optional().describe('What the macro is for.'),
    active: z.boolean().optional().describe('False when the macro is switched off.'),
    position: z.number().optional().describe('Order in the macros list.'),
    actions: z
      .array(z.looseObject({ field: z.string(), value: z.unknown() }))
      .default([])
      .describe('What it does: each ticket field it sets (comment_value is a reply), and the value.'),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);

/** The category a title names, the part before `::`, or null. */
export function macroCategory(title: string): string | null {
  const at = title.indexOf('::');
  return at > 0 ? title.slice(0, at).trim() : null;
}

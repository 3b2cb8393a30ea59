import * as z from 'zod';
import { builtOnce, type HttpClient, NumericId } from '../../../src/kit/index.js';
import { readOffsetPage } from './directory-schema.js';

export const MacroId = builtOnce(() =>
  NumericId().describe('The numeric macro id, as List Macros returns it.'),
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

/**
 * The macros of one category (case does not count), all of them without
 * one. The provider types its own `category` parameter as an integer while
 * its categories are names (`macros/categories` answers `["FAQ", ...]`), so
 * the list and search steps filter on the title's category here.
 */
export function ofCategory<Found extends { title: string }>(
  macros: readonly Found[],
  category: string | undefined,
): Found[] {
  const wanted = category?.trim().toLowerCase();
  if (!wanted) return [...macros];
  return macros.filter((macro) => macroCategory(macro.title)?.toLowerCase() === wanted);
}

/** The filters List Macros and Search Macros share: active ones by default, one category, the page. */
export const macroFilters = builtOnce(() => ({
  active_only: z.boolean().default(true).describe('False to include macros switched off.'),
  category: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only macros of this category (case does not count).'),
  page: z.number().int().min(1).max(100).default(1).describe('Page number, from next_page.'),
}));

/** What List Macros and Search Macros answer: a page of macros and the next page number. */
export const macroPage = builtOnce(() =>
  z.object({
    macros: z.array(Macro()).describe('The macros of this page.'),
    next_page: z.number().nullable().describe('The next page number, or null on the last page.'),
  }),
);

/**
 * One page of macros from a list path (`macros`, `macros/search`), with
 * `active=true` unless `active_only` is false, of the input's category.
 */
export async function readMacroPage(
  http: HttpClient,
  path: string,
  input: { active_only: boolean; category?: string | undefined; page: number },
  query: Record<string, string> = {},
): Promise<z.output<ReturnType<typeof macroPage>>> {
  const page = await readOffsetPage(http, {
    path,
    member: 'macros',
    item: Macro(),
    page: input.page,
    // Without `active` the provider answers switched-off macros too.
    query: { ...query, active: input.active_only ? 'true' : undefined },
  });
  return { macros: ofCategory(page.items, input.category), next_page: page.next_page };
}

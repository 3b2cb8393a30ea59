import * as z from 'zod';
import type { OptionsSource } from '../../../src/kit/index.js';
import { builtOnce, matchingItems, readAnswer } from '../../../src/kit/index.js';
import { ticketingPath } from './paths.js';

const Categories = builtOnce(() => z.object({ categories: z.array(z.string().max(200)).max(10_000) }));

/**
 * The account's macro categories (`macros/categories`, one unpaged list of
 * names), for the category field of List Macros and Search Macros; a search
 * filters the names here (the provider has no category search).
 */
export const macroCategoryOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const path = ticketingPath('macroCategories');
    const response = await http.request({ method: 'GET', path });
    const { categories } = readAnswer(Categories(), response.body, `GET ${path}`);
    const items = categories.map((name) => ({ value: name, label: name }));
    // The list comes whole; our cursor is where the next page starts in it.
    const from = Number(cursor) || 0;
    const matching = matchingItems(items, query);
    const next = from + limit < matching.length ? { next_cursor: String(from + limit) } : {};
    return { items: matching.slice(from, from + limit), ...next };
  },
};

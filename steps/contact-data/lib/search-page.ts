import type * as z from 'zod';
import { readAnswer, type StepContext } from '../../../src/kit/index.js';
import { searchSummary } from './search-filters.js';
import { wireSearch } from './wire.js';

/**
 * One search (`POST /person/search`, `/company/search`): sends the filters
 * and limit, reports the credits the provider says it charged, and returns
 * the items (never more than asked for) with the summary every search step
 * outputs.
 */
export async function searchPage<Wire extends z.ZodType, Item>(
  { http, reportCredits }: Pick<StepContext, 'http' | 'reportCredits'>,
  request: { path: string; filters: Record<string, unknown>; limit: number },
  wireItem: Wire,
  fromWire: (wire: z.output<Wire>) => Item,
) {
  const { path, filters, limit } = request;
  const response = await http.request({ method: 'POST', path, body: { filters, limit } });
  const answer = readAnswer(wireSearch(wireItem), response.body, `POST ${path}`);
  if (answer.creditsCharged !== undefined) reportCredits(answer.creditsCharged);
  const items = answer.results.slice(0, limit).map(fromWire);
  return {
    items,
    summary: {
      ...searchSummary(items.length, answer.total, limit),
      credits_charged: answer.creditsCharged ?? null,
    },
  };
}

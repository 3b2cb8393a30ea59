import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/** Search is charged by result volume: 1 credit per started block of this many results returned. */
export const SEARCH_RESULTS_PER_CREDIT = 25;
export const SEARCH_MAX_LIMIT = 100;

const filter = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(`${what} (case-insensitive, part of the value matches).`);

export const searchFilters = builtOnce(() => ({
  job_title: filter('Job title, e.g. "VP of Sales" or "engineer"'),
  company: filter('Company name or domain'),
  location: filter('City, state or country'),
  industry: filter('Industry, e.g. "Software"'),
}));

/** The provider's name for each filter in a search request body. */
export const wireFilterNames = builtOnce(
  () =>
    ({
      job_title: 'jobTitle',
      company: 'company',
      location: 'location',
      industry: 'industry',
    }) as const satisfies Record<keyof ReturnType<typeof searchFilters>, string>,
);

export const searchLimit = builtOnce(() =>
  z
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_LIMIT)
    .default(25)
    .describe(
      `Most results to return, 1 to ${SEARCH_MAX_LIMIT}. Default 25. Cost grows with results returned.`,
    ),
);

/** Refuses a search without any filter before anything is sent. */
export function requireAFilter(names: readonly string[]) {
  return (value: Record<string, unknown>, context: z.RefinementCtx) => {
    if (names.every((name) => value[name] === undefined)) {
      context.addIssue({ code: 'custom', message: `give at least one filter: ${names.join(', ')}` });
    }
  };
}

export const searchCredits = {
  basis: `1 credit per started block of ${SEARCH_RESULTS_PER_CREDIT} results returned; no results cost nothing`,
  estimate: (input: { limit: number }) => ({
    min: 0,
    max: Math.ceil(input.limit / SEARCH_RESULTS_PER_CREDIT),
  }),
};

export function searchSummary(returned: number, total: number | undefined, limit: number) {
  const known = total ?? returned;
  return {
    matched: returned > 0,
    total: total ?? null,
    returned,
    truncated: known > returned || (total === undefined && returned >= limit),
  };
}

export const searchSummaryFields = builtOnce(() => ({
  matched: z
    .boolean()
    .describe('True when at least one result was returned; a search with none costs nothing.'),
  total: z
    .number()
    .int()
    .nullable()
    .describe('How many match in all, as the provider counts; null when it did not say.'),
  returned: z.number().int().describe('How many this result holds.'),
  truncated: z
    .boolean()
    .describe('True when more match than were returned: narrow the filters or raise limit.'),
  credits_charged: z
    .number()
    .nullable()
    .describe('Credits the provider reported charging; null when it did not say.'),
}));

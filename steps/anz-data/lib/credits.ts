import type { HttpResponse, StepContext } from '../../../src/kit/index.js';
import { anzDataCreditHeaders } from './operations.js';

/**
 * Credit rules (spec, A limits): a person 1 to 2 credits per successful
 * lookup, a company 1, a search by result volume. No match costs nothing,
 * so every estimate runs from 0 (a no-match or an empty search) to the
 * dearest match; the runtime refuses a call whose dearest case exceeds the
 * invocation's budget before sending anything.
 */
export const PERSON_CREDITS = { min: 0, max: 2 } as const;
export const COMPANY_CREDITS = { min: 0, max: 1 } as const;
/** Search: 1 credit per person returned, so the requested limit is the worst case. */
export const CREDITS_PER_SEARCH_RESULT = 1;

export const creditBasis = {
  person:
    '1 credit for a matched profile, 2 when it comes with contact details (email or phone); no match costs 0',
  company: '1 credit per matched company; no match costs 0',
  search: '1 credit per person returned, so the limit is the worst case; no results cost 0',
} as const;

/**
 * Reports what the provider says it charged (the `x-credits-charged`
 * header on every paid answer, 0 on a no-match) and returns it. When the
 * header is absent nothing is reported and the charge is null (unknown),
 * never 0: `meta.credits.charged` and the output's `credits_charged` stay null.
 */
export function reportCharge(
  response: Pick<HttpResponse, 'headers'>,
  context: Pick<StepContext, 'reportCredits'>,
): number | null {
  const raw = response.headers.get(anzDataCreditHeaders.charged);
  if (raw === null || raw.trim() === '') return null;
  const charged = Number(raw);
  if (!Number.isFinite(charged) || charged < 0) return null;
  context.reportCredits(charged);
  return charged;
}

/** The output field every A lookup and search shares with C's. */
export const creditsChargedDescription =
  'Credits the provider reported charging for this call (0 for no match); null when it did not say.';

import { defineApiCallStep } from '../../src/api-call-step.js';
import type { HttpClient } from '../../src/http/http-client.js';
import { type CreditEstimate, defineStep } from '../../src/step.js';
import { COMPANY_CREDITS, CREDITS_PER_SEARCH_RESULT, PERSON_CREDITS, reportCharge } from './credits.js';
import { anzData, anzDataApi, SEARCH_LIMIT_MAX } from './index.js';

const generic = defineApiCallStep(anzData, {
  pathField: 'endpoint',
  customHeaders: false,
  title: 'ANZ Data API Call',
  keywords: ['api', 'request', 'custom', 'endpoint', 'raw', 'http', 'credits', 'balance'],
  examplePath: anzDataApi.credits.path,
});

const FREE: CreditEstimate = { min: 0, max: 0 };

/**
 * The worst case of a forwarded call to a paid path of the table: the same
 * rules as the dedicated steps; a search without a valid limit may return
 * the provider's maximum. Other endpoints are free as far as we know.
 */
function estimate(input: unknown): CreditEstimate {
  const { method, endpoint, body } = (input ?? {}) as { method?: string; endpoint?: string; body?: unknown };
  const path = `/${(endpoint ?? '').split(/[?#]/, 1)[0]?.replace(/^\/+/, '').replace(/\/+$/, '')}`;
  const is = (operation: { method: string; path: string }) =>
    operation.method === method && operation.path === path;
  if (is(anzDataApi.enrichPerson)) return { ...PERSON_CREDITS };
  if (is(anzDataApi.enrichCompany)) return { ...COMPANY_CREDITS };
  if (is(anzDataApi.searchPeople)) {
    const limit = (body as Record<string, unknown> | null | undefined)?.[
      anzDataApi.searchPeople.fields.limit
    ];
    const worst =
      Number.isInteger(limit) && (limit as number) >= 1
        ? Math.min(limit as number, SEARCH_LIMIT_MAX)
        : SEARCH_LIMIT_MAX;
    return { min: CREDITS_PER_SEARCH_RESULT, max: worst * CREDITS_PER_SEARCH_RESULT };
  }
  return { ...FREE };
}

/**
 * The generic API Call step, with credits: a forwarded lookup spends credits
 * like the dedicated steps do, so it gets the same estimate (and budget
 * refusal before sending) and reports the provider's charge.
 */
export default defineStep({
  ...generic,
  agentDescription: `${generic.agentDescription} Forwarded lookups cost credits like the dedicated steps (POST /enrich/person up to 2, /enrich/company 1, /search/people 1 per result up to its limit); GET /credits shows the balance for free.`,
  credits: {
    basis:
      'Credits as the endpoint charges them: /enrich/person 1-2, /enrich/company 1, /search/people 1 per person returned (the body limit, else 100, is the worst case); other endpoints 0',
    estimate,
  },
  async run(input, context) {
    const http: HttpClient = {
      baseUrl: context.http.baseUrl,
      async request(request) {
        const response = await context.http.request(request);
        reportCharge(response, context);
        return response as never;
      },
    };
    return generic.run(input, { ...context, http });
  },
});

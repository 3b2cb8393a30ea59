import {
  type CreditEstimate,
  defineApiCallStep,
  defineStep,
  type HttpClient,
  routedPath,
  withoutSchemas,
} from '../../src/kit/index.js';
import { anzData } from './integration.js';
import { COMPANY_CREDITS, CREDITS_PER_SEARCH_RESULT, PERSON_CREDITS, reportCharge } from './lib/credits.js';
import { anzDataApi, SEARCH_LIMIT_MAX } from './lib/operations.js';

const generic = defineApiCallStep(anzData, {
  pathField: 'endpoint',
  customHeaders: false,
  title: 'ANZ Data API Call',
  keywords: ['api', 'request', 'custom', 'endpoint', 'raw', 'http', 'credits', 'balance'],
  examplePath: anzDataApi.credits.path,
});

const FREE: CreditEstimate = { min: 0, max: 0 };
/** A call whose cost we cannot bound: with a credit budget set, it is refused before sending. */
const UNBOUNDED: CreditEstimate = { min: 0, max: Number.POSITIVE_INFINITY };

/**
 * The provider's own public API (provider facts, A): GET `/company` and
 * `/people` with query parameters. Forwarded through API Call they are paid
 * lookups too: `/company` as a company enrichment; `/people` may list many
 * people and its price per call is not known to us, so it is unbounded.
 */
const PROVIDER_COMPANY_LOOKUP = { method: 'GET', path: '/company' } as const;

/**
 * The worst case of a forwarded call: the paths of the table cost what the
 * dedicated steps cost (a search without a valid limit may return the
 * provider's maximum), the balance check is free, the provider's own GET
 * `/company` costs a company lookup, and any other path, POST or GET, is
 * unbounded: its price is unknown to us, and the provider's real lookups
 * are GETs, so an unknown read is not assumed free.
 */
export function estimateApiCall(input: { method: string; endpoint: string; body?: unknown }): CreditEstimate {
  const path = routedPath(input.endpoint);
  const is = (operation: { method: string; path: string }) =>
    operation.method === input.method && operation.path === path;
  if (is(anzDataApi.credits)) return { ...FREE };
  if (is(anzDataApi.enrichPerson)) return { ...PERSON_CREDITS };
  if (is(anzDataApi.enrichCompany) || is(PROVIDER_COMPANY_LOOKUP)) return { ...COMPANY_CREDITS };
  if (is(anzDataApi.searchPeople)) {
    const limit = (input.body as Record<string, unknown> | null | undefined)?.[
      anzDataApi.searchPeople.fields.limit
    ];
    const worst =
      Number.isInteger(limit) && (limit as number) >= 1
        ? Math.min(limit as number, SEARCH_LIMIT_MAX)
        : SEARCH_LIMIT_MAX;
    return { min: 0, max: worst * CREDITS_PER_SEARCH_RESULT };
  }
  return { ...UNBOUNDED };
}

/**
 * The generic API Call step, with credits: a forwarded lookup spends credits
 * like the dedicated steps do, so it gets the same estimate (and budget
 * refusal before sending) and reports the provider's charge. Unknown input
 * keys are refused, as on every anz_data and contact_data step.
 */
export default defineStep({
  ...withoutSchemas(generic),
  get output() {
    return generic.output;
  },
  get input() {
    return generic.input.strict();
  },
  agentDescription: `${generic.agentDescription} Forwarded lookups cost credits like the dedicated steps (POST /enrich/person up to 2, /enrich/company 1, /search/people 1 per result up to its limit; the provider's own GET /company 1); GET /credits shows the balance for free. Any other path has no known price: with a credit budget set it is refused before sending.`,
  credits: {
    basis:
      'credits as the endpoint charges them: POST /enrich/person 0-2, /enrich/company 0-1, /search/people 0 to 1 per person returned (the body limit, else 100); GET /company 0-1; GET /credits free; any other path (POST or GET, including GET /people) has no known price and counts as unbounded, so a credit budget refuses it',
    estimate: estimateApiCall,
  },
  examples: [{ title: 'The credit balance (free)', input: { method: 'GET', endpoint: '/credits' } }],
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

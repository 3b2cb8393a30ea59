import {
  type CreditEstimate,
  defineApiCallStep,
  defineStep,
  routedPath,
  withoutSchemas,
} from '../../src/kit/index.js';
import { contactData } from './integration.js';
import { contactDataPaths } from './lib/paths.js';
import { SEARCH_RESULTS_PER_CREDIT } from './lib/search-filters.js';

const base = defineApiCallStep(contactData, {
  pathField: 'endpoint',
  customHeaders: false,
  title: 'Contact Data API Call',
  keywords: ['api', 'request', 'custom', 'endpoint', 'raw', 'http', 'usage', 'credits'],
  examplePath: '/account/usage',
});

/**
 * The worst case of a raw call, from the path it names, so a credit budget
 * guards API Call as it guards the dedicated steps. The usage check is
 * free; a call to any path whose cost is unknown, POST or GET, is unbounded:
 * with a budget set, it is refused.
 */
export function apiCallCredits(input: { method: string; endpoint: string; body?: unknown }): CreditEstimate {
  const path = routedPath(input.endpoint);
  if (input.method === 'GET') {
    return path === contactDataPaths.usage ? { min: 0, max: 0 } : { min: 0, max: Number.POSITIVE_INFINITY };
  }
  if (input.method !== 'POST') return { min: 0, max: Number.POSITIVE_INFINITY };
  const records = Array.isArray(input.body) ? input.body.length : 0;
  const limit = (input.body as { limit?: unknown } | undefined)?.limit;
  switch (path) {
    case contactDataPaths.person:
      return { min: 0, max: 2 };
    case contactDataPaths.company:
      return { min: 0, max: 1 };
    case contactDataPaths.personBulk:
      return { min: 0, max: 2 * records };
    case contactDataPaths.companyBulk:
      return { min: 0, max: records };
    case contactDataPaths.personSearch:
    case contactDataPaths.companySearch:
      return {
        min: 0,
        max: Math.ceil((typeof limit === 'number' ? limit : 100) / SEARCH_RESULTS_PER_CREDIT),
      };
    default:
      return { min: 0, max: Number.POSITIVE_INFINITY };
  }
}

/** `creditsCharged` in the provider's answer, when it says. */
function reportedCredits(body: unknown): number | undefined {
  const value = (body as { creditsCharged?: unknown } | null)?.creditsCharged;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

export default defineStep({
  ...withoutSchemas(base),
  get output() {
    return base.output;
  },
  // Unknown input keys are refused, as on every contact_data and anz_data step.
  get input() {
    return base.input.strict();
  },
  agentDescription: `${base.agentDescription} Paid paths cost what the dedicated steps cost (POST /person 1-2 credits, /company 1, the /bulk paths per record, search per 25 results); GET /account/usage costs nothing. Any other path has no known price: with a credit budget set it is refused before sending. Prefer the dedicated steps: they batch, keep order and never re-send a succeeded record.`,
  credits: {
    basis:
      'as the path called charges: POST /person 0-2, /company 0-1, /person/bulk 0-2 per record, /company/bulk 0-1 per record, search 1 per 25 results; GET /account/usage free; any other path (POST or GET) has no known price and counts as unbounded, so a credit budget refuses it',
    estimate: apiCallCredits,
  },
  examples: [{ title: "The account's usage (free)", input: { method: 'GET', endpoint: '/account/usage' } }],
  async run(input, context) {
    const output = await base.run(input, context);
    const charged = reportedCredits(output.body);
    if (charged !== undefined) context.reportCredits(charged);
    return output;
  },
});

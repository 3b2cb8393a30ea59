import { defineStep } from '../../src/kit/index.js';
import { anzData } from './integration.js';
import { Abn } from './lib/abn.js';
import { Company } from './lib/anz-schema.js';
import { COMPANY_CREDITS, creditBasis } from './lib/credits.js';
import { enrichOne } from './lib/enrich-one.js';
import { enrichmentOutput } from './lib/enrichment-output.js';
import { Domain, ProfileUrl, Website } from './lib/lookup-fields.js';
import { givenKey, lookupKeys } from './lib/lookup-key.js';

const KEYS = ['profile_url', 'domain', 'abn', 'website'] as const;

export default defineStep({
  id: 'anz_data.enrich_company',
  // The id before steps were named verb_noun; saved workflows that use it keep working.
  aliases: ['anz_data.company_enrichment'],
  integration: anzData,
  title: 'Company Enrichment',
  description:
    'Look up one Australian or New Zealand company by profile URL, domain, ABN or website and get its firmographics: size, industry, location, employee count, technologies and ABN.',
  agentDescription:
    'Enriches exactly one company, found by exactly one of profile_url, domain, abn or website (never two). An ABN is 11 digits (spaces allowed) and must pass its checksum: a mistyped one is refused before anything is sent and costs nothing. Costs 1 credit per match; no match returns matched: false and costs nothing. Paid: not retried after a failure that may have reached the provider.',
  keywords: [
    'enrich company',
    'firmographics',
    'abn',
    'business number',
    'company lookup',
    'industry',
    'employees',
  ],
  get input() {
    return lookupKeys(
      {
        profile_url: ProfileUrl().optional(),
        domain: Domain().optional(),
        abn: Abn().optional(),
        website: Website().optional(),
      },
      'Exactly one of profile_url, domain, abn or website.',
    );
  },
  get output() {
    return enrichmentOutput('company', Company(), 'The company firmographics, or null when not matched.');
  },
  access: 'read',
  idempotent: false,
  credits: { basis: creditBasis.company, estimate: () => ({ ...COMPANY_CREDITS }) },
  variables: {
    matched: '$.matched',
    name: '$.company.name',
    abn: '$.company.abn',
    industry: '$.company.industry',
    employee_count: '$.company.employee_count',
    domain: '$.company.domain',
  },
  examples: [{ title: 'A company by its ABN', input: { abn: '18 123 456 789' } }],
  async run(input, context) {
    return await enrichOne(context, 'company', givenKey(input, KEYS));
  },
});

import { defineStep } from '../../src/kit/index.js';
import { contactData } from './integration.js';
import { companyLookup } from './lib/company-schema.js';
import { contactDataPaths } from './lib/paths.js';
import { lookupOne, lookupOutput } from './lib/single-lookup.js';

export default defineStep({
  id: 'contact_data.find_company',
  integration: contactData,
  title: 'Find Company',
  description:
    'Look up one company by domain or name and get its firmographics: size, industry, location, employee count, technologies and revenue.',
  agentDescription:
    'Finds one company. Give exactly one of domain (preferred, unambiguous) or name. Costs 1 credit when found; a company the provider does not know returns matched: false and costs nothing (not an error). For many companies use Enrich Companies.',
  keywords: [
    'find',
    'lookup',
    'company',
    'organization',
    'firmographics',
    'domain',
    'revenue',
    'employees',
    'company enrichment',
  ],
  get input() {
    return companyLookup().lookup;
  },
  get output() {
    return lookupOutput('company', companyLookup().item, {
      found: 'company',
      item: 'The company; null when not matched.',
    });
  },
  access: 'read',
  idempotent: false,
  credits: {
    basis: '1 credit per matched company; no match costs nothing',
    estimate: () => ({ min: 0, max: 1 }),
  },
  variables: {
    matched: '$.matched',
    industry: '$.company.industry',
    employee_count: '$.company.employee_count',
    revenue_range: '$.company.revenue.range',
  },
  examples: [{ title: 'A company by domain', input: { domain: 'contoso.example' } }],
  run: (input, context) => lookupOne(context, 'company', contactDataPaths.company, companyLookup(), input),
});

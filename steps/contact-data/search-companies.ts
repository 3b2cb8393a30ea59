import { defineStep } from '../../src/kit/index.js';
import { Company, companyFromWire, WireCompany } from './lib/company-schema.js';
import { contactDataPaths } from './lib/paths.js';
import { searchStep } from './lib/search-step.js';

export default defineStep(
  searchStep({
    id: 'contact_data.search_companies',
    title: 'Search Companies',
    description: 'Find companies by name or domain, location and industry, with their firmographics.',
    agentDescription:
      'Searches companies by company (name or domain), location and industry (at least one; combined with AND; each matches part of the value, case-insensitive) and returns their firmographics. Costs 1 credit per started block of 25 results returned (no results, no cost); keep limit as low as you need. To look up one known company use Find Company.',
    keywords: [
      'search',
      'companies',
      'accounts',
      'prospecting',
      'industry',
      'firmographics',
      'company search',
    ],
    filters: ['company', 'location', 'industry'],
    list: 'companies',
    item: Company,
    itemsDescription: 'Matching companies, up to limit.',
    variables: {
      matched: '$.matched',
      domains: '$.companies[*].domain',
      names: '$.companies[*].name',
      total: '$.total',
    },
    examples: [
      {
        title: 'Software companies in the United States',
        input: { industry: 'Software', location: 'United States', limit: 5 },
      },
    ],
    path: contactDataPaths.companySearch,
    wireItem: WireCompany,
    fromWire: companyFromWire,
  }),
);

import { z } from 'zod';
import { defineStep } from '../../src/step.js';
import { contactData } from './integration.js';
import { Company, companyFromWire, WireCompany } from './lib/company-schema.js';
import { contactDataPaths } from './lib/paths.js';
import {
  requireAFilter,
  searchCredits,
  searchFilters,
  searchLimit,
  searchSummaryFields,
} from './lib/search-filters.js';
import { searchPage } from './lib/search-page.js';

const FILTERS = ['company', 'location', 'industry'] as const;

export default defineStep({
  id: 'contact_data.search_companies',
  integration: contactData,
  title: 'Search Companies',
  description: 'Find companies by name or domain, location and industry, with their firmographics.',
  agentDescription:
    'Searches companies by company (name or domain), location and industry (at least one; combined with AND; each matches part of the value, case-insensitive) and returns their firmographics. Costs 1 credit per started block of 25 results returned (no results, no cost); keep limit as low as you need. To look up one known company use Find Company.',
  keywords: ['search', 'companies', 'accounts', 'prospecting', 'industry', 'firmographics', 'company search'],
  input: z
    .strictObject({
      company: searchFilters.company,
      location: searchFilters.location,
      industry: searchFilters.industry,
      limit: searchLimit,
    })
    .superRefine(requireAFilter(FILTERS))
    .describe('Filters, at least one, and a limit.'),
  output: z.object({
    companies: z.array(Company).describe('Matching companies, up to limit.'),
    ...searchSummaryFields,
  }),
  access: 'read',
  idempotent: false,
  credits: searchCredits,
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
  async run(input, context) {
    const { company, location, industry, limit } = input;
    const { items, summary } = await searchPage(
      context,
      { path: contactDataPaths.companySearch, filters: { company, location, industry }, limit },
      WireCompany,
      companyFromWire,
    );
    return { companies: items, ...summary };
  },
});

import { z } from 'zod';
import { defineStep } from '../../src/step.js';
import { contactData } from './integration.js';
import { ContactPreview, contactPreviewFromWire, WirePerson } from './lib/contact-schema.js';
import { contactDataPaths } from './lib/paths.js';
import {
  requireAFilter,
  searchCredits,
  searchFilters,
  searchLimit,
  searchSummaryFields,
} from './lib/search-filters.js';
import { searchPage } from './lib/search-page.js';

const FILTERS = ['job_title', 'company', 'location', 'industry'] as const;

export default defineStep({
  id: 'contact_data.search_contacts',
  integration: contactData,
  title: 'Search Contacts',
  description: 'Find people by job title, company, location and industry.',
  agentDescription:
    'Searches people by job_title, company, location and industry (at least one; combined with AND; each matches part of the value, case-insensitive). Returns names, titles, companies, locations and profile URLs, not emails or phones: pass the profile_url of the people you need to Find Contact or Enrich Contacts. Costs 1 credit per started block of 25 results returned (no results, no cost); keep limit as low as you need.',
  keywords: [
    'search',
    'prospect',
    'prospecting',
    'find people',
    'leads',
    'job title',
    'people search',
    'contacts',
  ],
  input: z
    .strictObject({ ...searchFilters, limit: searchLimit })
    .superRefine(requireAFilter(FILTERS))
    .describe('Filters, at least one, and a limit.'),
  output: z.object({
    contacts: z.array(ContactPreview).describe('Matching people, up to limit, without contact details.'),
    ...searchSummaryFields,
  }),
  access: 'read',
  idempotent: false,
  credits: searchCredits,
  variables: {
    matched: '$.matched',
    profile_urls: '$.contacts[*].profile_url',
    names: '$.contacts[*].full_name',
    total: '$.total',
  },
  examples: [
    {
      title: 'Sales leaders in software',
      input: { job_title: 'VP of Sales', industry: 'Software', limit: 5 },
    },
  ],
  async run(input, context) {
    const { job_title, company, location, industry, limit } = input;
    const { items, summary } = await searchPage(
      context,
      {
        path: contactDataPaths.personSearch,
        filters: { jobTitle: job_title, company, location, industry },
        limit,
      },
      WirePerson,
      contactPreviewFromWire,
    );
    return { contacts: items, ...summary };
  },
});

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
  searchSummary,
  searchSummaryFields,
} from './lib/search-filters.js';
import { readWire, wireSearch } from './lib/wire.js';

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
  async run(input, { http, reportCredits }) {
    const path = contactDataPaths.personSearch;
    const response = await http.request({
      method: 'POST',
      path,
      body: {
        filters: {
          jobTitle: input.job_title,
          company: input.company,
          location: input.location,
          industry: input.industry,
        },
        limit: input.limit,
      },
    });
    const answer = readWire(wireSearch(WirePerson), response.body, `POST ${path}`);
    if (answer.creditsCharged !== undefined) reportCredits(answer.creditsCharged);
    const contacts = answer.results.slice(0, input.limit).map(contactPreviewFromWire);
    return {
      contacts,
      ...searchSummary(contacts.length, answer.total, input.limit),
      credits_charged: answer.creditsCharged ?? null,
    };
  },
});

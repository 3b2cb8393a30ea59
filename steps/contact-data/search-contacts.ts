import { defineStep } from '../../src/kit/index.js';
import { ContactPreview, contactPreviewFromWire, WirePerson } from './lib/contact-schema.js';
import { contactDataPaths } from './lib/paths.js';
import { searchStep } from './lib/search-step.js';

export default defineStep(
  searchStep({
    id: 'contact_data.search_contacts',
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
    filters: ['job_title', 'company', 'location', 'industry'],
    list: 'contacts',
    item: ContactPreview,
    itemsDescription: 'Matching people, up to limit, without contact details.',
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
    path: contactDataPaths.personSearch,
    wireItem: WirePerson,
    fromWire: contactPreviewFromWire,
  }),
);

import { defineStep } from '../../src/kit/index.js';
import { anzData } from './integration.js';
import { Person } from './lib/anz-schema.js';
import { creditBasis, PERSON_CREDITS } from './lib/credits.js';
import { enrichOne } from './lib/enrich-one.js';
import { enrichmentOutput } from './lib/enrichment-output.js';
import { ProfileSlug, ProfileUrl, WorkEmail } from './lib/lookup-fields.js';
import { givenKey, lookupKeys } from './lib/lookup-key.js';

const KEYS = ['profile_url', 'email', 'profile_slug'] as const;

export default defineStep({
  id: 'anz_data.enrich_person',
  // The id before steps were named verb_noun; saved workflows that use it keep working.
  aliases: ['anz_data.people_enrichment'],
  integration: anzData,
  title: 'People Enrichment',
  description:
    'Look up one person in the ANZ B2B data set by profile URL, email or profile slug and get their contact details: emails, phones, job title, company and location.',
  agentDescription:
    'Enriches exactly one person, found by exactly one of profile_url, email or profile_slug (never two). Costs 1 credit for a matched profile, 2 when contact details come with it; no match returns matched: false and costs nothing. Paid: do not call it twice for the same person, and it is not retried after a failure that may have reached the provider. To find people you have no key for, use People Search first.',
  keywords: [
    'enrich person',
    'contact details',
    'email lookup',
    'phone number',
    'profile',
    'lead',
    'reverse email',
  ],
  get input() {
    return lookupKeys(
      {
        profile_url: ProfileUrl().optional(),
        email: WorkEmail().optional(),
        profile_slug: ProfileSlug().optional(),
      },
      'Exactly one of profile_url, email or profile_slug.',
    );
  },
  get output() {
    return enrichmentOutput('person', Person(), 'The person with contact details, or null when not matched.');
  },
  access: 'read',
  idempotent: false,
  credits: { basis: creditBasis.person, estimate: () => ({ ...PERSON_CREDITS }) },
  variables: {
    matched: '$.matched',
    full_name: '$.person.full_name',
    email: '$.person.emails[0].address',
    phone: '$.person.phones[0].number',
    job_title: '$.person.job_title',
    company: '$.person.company.name',
  },
  examples: [{ title: 'A person by email', input: { email: 'olivia.nguyen@wattle-analytics.example' } }],
  async run(input, context) {
    return await enrichOne(context, 'person', givenKey(input, KEYS));
  },
});

import { defineStep } from '../../src/kit/index.js';
import { contactData } from './integration.js';
import { personLookup } from './lib/contact-schema.js';
import { contactDataPaths } from './lib/paths.js';
import { lookupOne, lookupOutput } from './lib/single-lookup.js';

/** A matched person costs 1 credit, 2 when phone numbers are revealed; no match is free. */
export const PERSON_CREDITS = { min: 0, max: 2 } as const;

export default defineStep({
  id: 'contact_data.find_contact',
  integration: contactData,
  title: 'Find Contact',
  description:
    'Look up one person by email, profile URL, or name and company, and get their emails, phone numbers, job title, company and location.',
  agentDescription:
    'Finds one person. Give exactly one of: email; profile_url; or first_name + last_name + company. Costs 1 credit when found with email only, 2 when phone numbers are revealed; a person the provider does not know returns matched: false and costs nothing (not an error). Not retried automatically after a failure that may have reached the provider, so credits are never spent twice. For more than a few people use Enrich Contacts (batches of up to 100).',
  keywords: [
    'find',
    'lookup',
    'person',
    'contact',
    'email',
    'phone',
    'enrich',
    'reveal',
    'people enrichment',
  ],
  get input() {
    return personLookup().lookup;
  },
  get output() {
    return lookupOutput('contact', personLookup().item, {
      found: 'person',
      item: 'The person with contact details; null when not matched.',
    });
  },
  access: 'read',
  idempotent: false,
  credits: {
    basis: '1 credit per matched person, 2 when phone numbers are revealed; no match costs nothing',
    estimate: () => ({ ...PERSON_CREDITS }),
  },
  variables: {
    matched: '$.matched',
    email: '$.contact.emails[0].address',
    phone: '$.contact.phones[0].number',
    job_title: '$.contact.job_title',
    company: '$.contact.company.name',
  },
  examples: [
    {
      title: 'A person by name and company',
      input: { first_name: 'Ava', last_name: 'Abbott', company: 'northwind.example' },
    },
  ],
  run: (input, context) => lookupOne(context, 'contact', contactDataPaths.person, personLookup(), input),
});

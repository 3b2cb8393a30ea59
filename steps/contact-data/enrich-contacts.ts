import { defineStep } from '../../src/kit/index.js';
import { contactData } from './integration.js';
import { bulkInput, bulkOutput, bulkVariables, runBulkLookup } from './lib/bulk-step.js';
import { personLookup } from './lib/contact-schema.js';
import { BULK_MAX_RECORDS, contactDataPaths } from './lib/paths.js';

export default defineStep({
  id: 'contact_data.enrich_contacts',
  integration: contactData,
  title: 'Enrich Contacts',
  description:
    'Enrich many people at once (emails, phone numbers, job title, company, location), in batches of up to 100 per provider request.',
  agentDescription: `Enriches a list of people, each identified by exactly one of email, profile_url, or first_name + last_name + company. Records go out in batches of batch_size (at most ${BULK_MAX_RECORDS}, the provider's cap) with bounded concurrency; the rate gate waits for quota instead of failing. The result keeps input order and says per record matched, no_match (free) or failed with why; retry_indexes lists failed records that are safe to run again (nothing was charged); unknown_indexes lists records that may have been charged (connection lost, timeout, a 500/502/504): check before running those again. Credits: 1 per matched person, 2 with phone numbers, charged per record; the worst case is 2 x records, and a credit budget below it is refused before anything is sent. A record that already succeeded is never sent again, and a batch is re-sent automatically only when the provider provably did not act on it (503, or a connection that never opened).`,
  keywords: [
    'enrich',
    'bulk',
    'batch',
    'contacts',
    'people',
    'list',
    'csv',
    'emails',
    'phones',
    'people enrichment',
  ],
  get input() {
    return bulkInput('contacts', personLookup().lookup, {
      records: 'People',
      each: 'each with exactly one way to identify them',
    });
  },
  get output() {
    return bulkOutput('contact', personLookup().lookup, personLookup().item);
  },
  access: 'read',
  idempotent: false,
  // A batch is paid when it lands: one that may have landed is never sent again; each record says what is known.
  replay: { mode: 'refuse' },
  credits: {
    basis:
      'per record in each batch: 1 credit per matched person, 2 when phone numbers are revealed; no match costs nothing',
    estimate: (input) => ({ min: 0, max: 2 * input.contacts.length }),
  },
  variables: bulkVariables('contacts', 'contact'),
  examples: [
    {
      title: 'Two people by email, in one batch',
      input: {
        contacts: [{ email: 'ava.abbott@northwind.example' }, { email: 'ben.abbott@contoso.example' }],
      },
    },
  ],
  run: (input, context) =>
    runBulkLookup({
      context,
      itemKey: 'contact',
      records: input.contacts,
      batchSize: input.batch_size,
      concurrency: input.concurrency,
      path: contactDataPaths.personBulk,
      kind: personLookup(),
    }),
});

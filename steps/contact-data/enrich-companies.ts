import { defineStep } from '../../src/kit/index.js';
import { contactData } from './integration.js';
import { bulkInput, bulkOutput, bulkVariables, runBulkLookup } from './lib/bulk-step.js';
import { companyLookup } from './lib/company-schema.js';
import { BULK_MAX_RECORDS, contactDataPaths } from './lib/paths.js';

export default defineStep({
  id: 'contact_data.enrich_companies',
  integration: contactData,
  title: 'Enrich Companies',
  description:
    'Enrich many companies at once (size, industry, location, employee count, technologies, revenue), in batches of up to 100 per provider request.',
  agentDescription: `Enriches a list of companies, each identified by exactly one of domain or name. Records go out in batches of batch_size (at most ${BULK_MAX_RECORDS}) with bounded concurrency; the rate gate waits for quota instead of failing. The result keeps input order and says per record matched, no_match (free) or failed with why; retry_indexes lists failed records that are safe to run again (nothing was charged); unknown_indexes lists records that may have been charged (connection lost, timeout, a 500/502/504): check before running those again. Credits: 1 per matched company, charged per record; the worst case is 1 x records. A record that already succeeded is never sent again, and a batch is re-sent automatically only when the provider provably did not act on it (503, or a connection that never opened).`,
  keywords: [
    'enrich',
    'bulk',
    'batch',
    'companies',
    'accounts',
    'firmographics',
    'domains',
    'list',
    'csv',
    'company enrichment',
  ],
  get input() {
    return bulkInput('companies', companyLookup().lookup, {
      records: 'Companies',
      each: 'each with exactly one of domain or name',
    });
  },
  get output() {
    return bulkOutput('company', companyLookup().lookup, companyLookup().item);
  },
  access: 'read',
  idempotent: false,
  // A batch is paid when it lands: one that may have landed is never sent again; each record says what is known.
  replay: { mode: 'refuse' },
  credits: {
    basis: 'per record in each batch: 1 credit per matched company; no match costs nothing',
    estimate: (input) => ({ min: 0, max: input.companies.length }),
  },
  variables: bulkVariables('companies', 'company'),
  examples: [
    {
      title: 'Two companies by domain',
      input: { companies: [{ domain: 'northwind.example' }, { domain: 'contoso.example' }] },
    },
  ],
  run: (input, context) =>
    runBulkLookup({
      context,
      itemKey: 'company',
      records: input.companies,
      batchSize: input.batch_size,
      concurrency: input.concurrency,
      path: contactDataPaths.companyBulk,
      kind: companyLookup(),
    }),
});

import { connectWithApiKey } from './connect-with-api-key.js';
import { CreditTally } from './credit-tally.js';
import type { DemoContext } from './demo-context.js';
import { showRefusal } from './show-refusal.js';

const CONNECTION = 'sales-data';
const DEMO_KEY = 'cd_demo_key_7c41e0';
const STARTING_CREDITS = 600;

/**
 * Find a contact and a company, miss on an unknown email (free), search,
 * enrich 250 people in three batches, see an over-budget run refused before
 * sending, and compare the credits the provider reported with the balance
 * it shows through the API Call step.
 */
export async function contactDataStory(demo: DemoContext): Promise<void> {
  demo.heading('Contact data: find, search and bulk-enrich people, paid in credits');
  demo.sandbox.contactData.addKey(DEMO_KEY, { credits: STARTING_CREDITS });
  await connectWithApiKey(demo, {
    id: CONNECTION,
    integration: 'contact_data',
    label: 'Sales data (sandbox)',
    mount: 'contact-data',
    apiKey: DEMO_KEY,
    credits: STARTING_CREDITS,
  });
  const paid = new CreditTally(demo, CONNECTION);

  const people = demo.sandbox.contactData.directory.people;
  await paid.run(
    'contact_data.find_contact',
    { email: people[1]!.emailAddresses[0]!.email },
    'with phones: 2 credits',
  );
  await paid.run('contact_data.find_contact', { email: 'nobody@unknown.example' }, 'no match: free');
  await paid.run('contact_data.find_company', { domain: 'contoso.example' });
  await paid.run('contact_data.search_contacts', { job_title: 'VP', location: 'United States', limit: 5 });

  const contacts = people
    .slice(0, 250)
    .map((person, index) =>
      index % 25 === 24
        ? { email: `left${index}@unknown.example` }
        : { email: person.emailAddresses[0]!.email },
    );
  const bulk = await paid.run<{ summary: Record<string, number> }>(
    'contact_data.enrich_contacts',
    { contacts },
    '250 people, batches of 100',
  );
  const { matched, no_match, failed, batches } = bulk.output.summary;
  demo.say(`${matched} matched, ${no_match} no match (free), ${failed} failed, in ${batches} requests`);

  await showRefusal(demo, 'over-budget run', () =>
    demo.registry.invoke(demo.runtime, 'contact_data.enrich_contacts', {
      connection: CONNECTION,
      input: { contacts },
      creditBudget: 100,
    }),
  );

  const usage = await demo.step<{ body: { credits?: { balance?: number } } }>(
    'contact_data.api_call',
    CONNECTION,
    { method: 'GET', endpoint: '/account/usage' },
    'free',
  );
  demo.say(
    `credits charged as the provider reported them: ${paid.spent}; balance ${STARTING_CREDITS} -> ${usage.output.body.credits?.balance ?? '?'}`,
  );
}

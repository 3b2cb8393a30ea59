import type { Connection } from '../../connection/connection.js';
import { isToolstepsError } from '../../errors.js';
import type { InvocationResult } from '../../runtime.js';
import type { DemoContext } from './demo-context.js';

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
  const now = Date.now();
  const connection: Connection = {
    id: CONNECTION,
    integration: 'contact_data',
    label: 'Sales data (sandbox)',
    kind: 'api_key',
    fields: { baseUrl: demo.sandbox.baseUrl('contact-data') },
    secrets: { apiKey: DEMO_KEY },
    createdAt: now,
    updatedAt: now,
  };
  await demo.runtime.store.put(connection);
  demo.say(`connected "${CONNECTION}" with an API key holding ${STARTING_CREDITS} credits`);

  let spent = 0;
  const paid = async <Output>(stepId: string, input: unknown, note?: string) => {
    const result: InvocationResult<Output> = await demo.step<Output>(stepId, CONNECTION, input, note);
    spent += result.meta.credits?.charged ?? 0;
    return result;
  };

  const people = demo.sandbox.contactData.directory.people;
  await paid(
    'contact_data.find_contact',
    { email: people[1]!.emailAddresses[0]!.email },
    'with phones: 2 credits',
  );
  await paid('contact_data.find_contact', { email: 'nobody@unknown.example' }, 'no match: free');
  await paid('contact_data.find_company', { domain: 'contoso.example' });
  await paid('contact_data.search_contacts', { job_title: 'VP', location: 'United States', limit: 5 });

  const contacts = people
    .slice(0, 250)
    .map((person, index) =>
      index % 25 === 24
        ? { email: `left${index}@unknown.example` }
        : { email: person.emailAddresses[0]!.email },
    );
  const bulk = await paid<{ summary: Record<string, number> }>(
    'contact_data.enrich_contacts',
    { contacts },
    '250 people, batches of 100',
  );
  const { matched, no_match, failed, batches } = bulk.output.summary;
  demo.say(`${matched} matched, ${no_match} no match (free), ${failed} failed, in ${batches} requests`);

  const log = demo.sandbox.server.requestLog;
  const before = log.length;
  try {
    await demo.registry.invoke(demo.runtime, 'contact_data.enrich_contacts', {
      connection: CONNECTION,
      input: { contacts },
      creditBudget: 100,
    });
    demo.say('over-budget run: unexpectedly accepted');
  } catch (error) {
    if (!isToolstepsError(error)) throw error;
    demo.say(`over-budget run: ${error.name} ${error.code}: ${error.message}`);
    demo.say(`  requests sent to the provider: ${log.length - before}`);
  }

  const usage = await demo.step<{ body: { credits?: { balance?: number } } }>(
    'contact_data.api_call',
    CONNECTION,
    { method: 'GET', endpoint: '/account/usage' },
    'free',
  );
  demo.say(
    `credits charged as the provider reported them: ${spent}; balance ${STARTING_CREDITS} -> ${usage.output.body.credits?.balance ?? '?'}`,
  );
}

import { connectWithApiKey } from './connect-with-api-key.js';
import { CreditTally } from './credit-tally.js';
import type { DemoContext } from './demo-context.js';
import { showRefusal } from './show-refusal.js';

const CONNECTION = 'anz-prospecting';

/**
 * Enrich a company by ABN, search its engineers, enrich one of them, miss on
 * an unknown email (free), then show a mistyped ABN and an over-budget search
 * refused before sending, and add up the credits the provider charged.
 */
export async function anzDataStory(demo: DemoContext): Promise<void> {
  demo.heading('ANZ B2B data: enrichment and search, paid in credits');
  const startingCredits = 25;
  const apiKey = demo.sandbox.anzData.issueKey(startingCredits);
  await connectWithApiKey(demo, {
    id: CONNECTION,
    integration: 'anz_data',
    label: 'Prospecting (sandbox)',
    mount: 'anz-data',
    apiKey,
    credits: startingCredits,
  });
  const paid = new CreditTally(demo, CONNECTION);

  await paid.run('anz_data.enrich_company', { abn: '18 123 456 789' }, 'ABN with spaces');
  const search = await paid.run<{ people: { profile_url: string | null }[] }>('anz_data.search_people', {
    company: 'Wattle Analytics',
    department: 'engineering',
    limit: 3,
  });
  const profileUrl = search.output.people[0]?.profile_url;
  if (profileUrl) await paid.run('anz_data.enrich_person', { profile_url: profileUrl });
  await paid.run('anz_data.enrich_person', { email: 'nobody@unknown.example' }, 'no match: free');

  await showRefusal(demo, 'mistyped ABN', () =>
    demo.registry.invoke(demo.runtime, 'anz_data.enrich_company', {
      connection: CONNECTION,
      input: { abn: '18 123 456 788' },
    }),
  );
  await showRefusal(demo, 'search of 50 with a budget of 10 credits', () =>
    demo.registry.invoke(demo.runtime, 'anz_data.search_people', {
      connection: CONNECTION,
      input: { position: 'manager', limit: 50 },
      creditBudget: 10,
    }),
  );

  const balance = await demo.step<{ body: { credits_remaining?: number } }>(
    'anz_data.api_call',
    CONNECTION,
    { method: 'GET', endpoint: '/credits' },
    'free balance check',
  );
  demo.say(
    `credits charged by the provider in this story: ${paid.spent}; balance ${balance.output.body.credits_remaining ?? '?'} of ${startingCredits}`,
  );
}

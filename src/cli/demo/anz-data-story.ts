import type { Connection } from '../../connection/connection.js';
import { isToolstepsError } from '../../errors.js';
import type { InvocationResult } from '../../runtime.js';
import type { DemoContext } from './demo-context.js';

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
  const now = Date.now();
  const connection: Connection = {
    id: CONNECTION,
    integration: 'anz_data',
    label: 'Prospecting (sandbox)',
    kind: 'api_key',
    fields: { baseUrl: demo.sandbox.baseUrl('anz-data') },
    secrets: { apiKey },
    createdAt: now,
    updatedAt: now,
  };
  await demo.runtime.store.put(connection);
  demo.say(`connected "${CONNECTION}" with an API key holding ${startingCredits} credits`);

  let spent = 0;
  const paid = async <Output>(stepId: string, input: unknown, note?: string) => {
    const result: InvocationResult<Output> = await demo.step<Output>(stepId, CONNECTION, input, note);
    spent += result.meta.credits?.charged ?? 0;
    return result;
  };

  await paid('anz_data.enrich_company', { abn: '18 123 456 789' }, 'ABN with spaces');
  const search = await paid<{ people: { profile_url: string | null }[] }>('anz_data.search_people', {
    company: 'Wattle Analytics',
    department: 'engineering',
    limit: 3,
  });
  const profileUrl = search.output.people[0]?.profile_url;
  if (profileUrl) await paid('anz_data.enrich_person', { profile_url: profileUrl });
  await paid('anz_data.enrich_person', { email: 'nobody@unknown.example' }, 'no match: free');

  const log = demo.sandbox.server.requestLog;
  const refuse = async (label: string, run: () => Promise<unknown>) => {
    const before = log.length;
    try {
      await run();
      demo.say(`${label}: unexpectedly accepted`);
    } catch (error) {
      if (!isToolstepsError(error)) throw error;
      demo.say(`${label}: ${error.name} ${error.code}: ${error.message}`);
      demo.say(`  requests sent to the provider: ${log.length - before}`);
    }
  };
  await refuse('mistyped ABN', () =>
    demo.registry.invoke(demo.runtime, 'anz_data.enrich_company', {
      connection: CONNECTION,
      input: { abn: '18 123 456 788' },
    }),
  );
  await refuse('search of 50 with a budget of 10 credits', () =>
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
    `credits charged by the provider in this story: ${spent}; balance ${balance.output.body.credits_remaining ?? '?'} of ${startingCredits}`,
  );
}

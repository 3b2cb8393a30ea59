import zendesk from 'node-zendesk';
import { type Sandbox, startSandbox } from '../../../sandbox/index.js';

/** A record as node-zendesk hands it back: an id and whatever the provider answered. */
export interface ZendeskRecord {
  id: number;
  [key: string]: unknown;
}

export type ZendeskClient = ReturnType<typeof zendesk.createClient>;

/**
 * A sandbox, and node-zendesk (unmodified) signed in to its `acme` account as
 * the seeded admin, with OAuth, as an app would use it.
 */
export async function zendeskAgainstSandbox(): Promise<{ sandbox: Sandbox; client: ZendeskClient }> {
  const sandbox = await startSandbox();
  const tokens = sandbox.ticketing.issueTokens('acme');
  const client = zendesk.createClient({
    token: tokens.access_token,
    oauth: true,
    endpointUri: `${sandbox.baseUrl('ticketing', 'acme')}/api/v2`,
    throwOriginalException: true,
  });
  return { sandbox, client };
}

/** The same, closable as one fixture (useFixture). */
export async function zendeskWorld(): Promise<{
  sandbox: Sandbox;
  client: ZendeskClient;
  close(): Promise<void>;
}> {
  const { sandbox, client } = await zendeskAgainstSandbox();
  return { sandbox, client, close: () => sandbox.close() };
}

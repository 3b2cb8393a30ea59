import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from '../../../src/model/connection.js';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import type { TenantStores } from '../../../src/store/tenant-stores.js';
import { subscriptionFor } from '../../triggers/trigger-fixtures.js';

/**
 * Tenants `a` and `b` of the isolation suite: each has a ticketing
 * connection `support` (the same id, two records) and `a` a subscription.
 * Every test has `b` try to reach `a`'s records and counts what reaches the
 * provider.
 */
export const A = parseTenantId('a');
export const B = parseTenantId('b');
export const A_TOKEN = 'tkt_at_tenant-a-secret-0123456789';
export const B_TOKEN = 'tkt_at_tenant-b-secret-9876543210';
export const A_ONLY = 'a-private-desk';
export const A_SUBSCRIPTION = 'sub_a0000000000000000001';
export const A_HOOK_SECRET = 'tenant-a-signing-secret-0123456789';
export const B_HOOK_SECRET = 'tenant-b-signing-secret-0123456789';

/** A ticketing connection whose requests go to `baseUrl` (a counting server). */
export function deskConnection(id: string, accessToken: string, baseUrl: string): Connection {
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl },
    secrets: { accessToken },
    createdAt: 1,
    updatedAt: 1,
  };
}

/**
 * The records the isolation tests start from, put in `stores`: `support` in
 * both tenants (each with its own tenant's token) and A_ONLY in a alone, all
 * sending to `providerUrl`; with `subscription`, a's subscription
 * A_SUBSCRIPTION (signed with A_HOOK_SECRET) too.
 */
export async function seedTwoTenants(
  stores: Pick<TenantStores, 'forTenant'>,
  providerUrl: string,
  options: { subscription?: boolean } = {},
): Promise<void> {
  const a = stores.forTenant(A);
  await a.connections.put(deskConnection('support', A_TOKEN, providerUrl));
  await a.connections.put(deskConnection(A_ONLY, A_TOKEN, providerUrl));
  if (options.subscription) {
    await a.subscriptions.put(
      subscriptionFor('ticketing.ticket_created', { id: A_SUBSCRIPTION, tenant: A, secret: A_HOOK_SECRET }),
    );
  }
  await stores.forTenant(B).connections.put(deskConnection('support', B_TOKEN, providerUrl));
}

/** A loopback provider that answers every request 200 `{}` and records each with its bearer token. */
export async function countingProvider(): Promise<{
  server: Server;
  url: string;
  seen: string[];
  close(): Promise<void>;
}> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ticket: { id: 1, subject: 's', status: 'open' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The message of an error with every mention of `id` replaced, to compare refusals of two ids. */
export function shapeOf(error: unknown, id: string): { code: unknown; message: string } {
  const { code, message } = error as { code: unknown; message: string };
  return { code, message: message.split(id).join('<id>') };
}

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import {
  type ClientOperation,
  callsIn,
  routeKey,
  vercelSdkOperations,
  zendeskClientOperations,
} from './support/official-client-methods.js';

/**
 * Every route a sandbox emulator serves that the provider's official client
 * has a method for is called through that client in the official-clients
 * tests: a new sandbox route, or a client release with a method for a route
 * already served, fails here until a test calls it. The clients' methods are
 * read from their code in node_modules, the routes from the emulators.
 */
const sandbox = useFixture(startSandbox, 'all');

const here = import.meta.dirname;
const testFiles = (prefix: string) =>
  readdirSync(here)
    .filter((file) => file.startsWith(prefix) && file.endsWith('.test.ts'))
    .map((file) => join(here, file));

/** Served routes with a client method, each with the methods that reach it and whether a test calls one. */
function coverage(
  served: { method: string; template: string }[],
  operations: ClientOperation[],
  calls: Set<string>,
) {
  const routes = new Set(served.map((route) => routeKey(route.method, route.template)));
  const byRoute = new Map<string, string[]>();
  for (const operation of operations.filter((candidate) => routes.has(candidate.route))) {
    byRoute.set(operation.route, [...(byRoute.get(operation.route) ?? []), operation.call]);
  }
  const uncovered = [...byRoute]
    .filter(([, methods]) => !methods.some((method) => calls.has(method)))
    .map(([route, methods]) => `${route} (${methods.join(' or ')})`);
  return { routes: byRoute, uncovered };
}

/** Each client: the test files that call it, its variable there, its methods, the routes served, one method it must list. */
const CLIENTS = [
  {
    client: '@vercel/sdk',
    calledIn: ['official-clients-deployments', 'vercel'],
    operations: vercelSdkOperations,
    served: () => sandbox.deployments.servedRoutes(),
    known: { call: 'domains.getDomains', route: 'GET /v5/domains' },
  },
  {
    client: 'node-zendesk',
    calledIn: ['official-clients-ticketing', 'client'],
    operations: zendeskClientOperations,
    served: () => sandbox.ticketing.servedRoutes(),
    known: { call: 'attachments.upload', route: 'POST /uploads' },
  },
] as const;

describe('official clients cover every sandbox route they have a method for', () => {
  it.each(CLIENTS)('$client: each route it can call is called in $calledIn.0*.test.ts', (entry) => {
    const operations = entry.operations();
    // The reader must find the client's methods, or the check below passes vacuously.
    expect(operations.length).toBeGreaterThan(200);
    expect(operations).toContainEqual(entry.known);
    const { routes, uncovered } = coverage(
      entry.served(),
      operations,
      callsIn(testFiles(entry.calledIn[0]), entry.calledIn[1]),
    );
    expect(routes.size).toBeGreaterThan(25);
    expect(uncovered).toEqual([]);
  });
});

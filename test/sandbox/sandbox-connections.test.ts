// The docs' example (docs/sandbox.md, "In your tests"), run as an embedder runs it:
// through the package's public entries only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, sandboxConnections, startSandbox } from '../../sandbox/index.js';
import { MemoryConnectionStore, Runtime } from '../../src/index.js';
import { createRegistry } from '../../steps/index.js';

const registry = createRegistry();
let sandbox: Sandbox;
let runtime: Runtime;

beforeAll(async () => {
  sandbox = await startSandbox();
  const connections = await sandboxConnections(sandbox, { registry });
  runtime = new Runtime({ store: new MemoryConnectionStore(Object.values(connections)) });
});
afterAll(() => sandbox.close());

it('connects every integration, OAuth ones through the code flow, and each one works', async () => {
  const ids = (await runtime.store.list()).map((connection) => connection.id).sort();
  expect(ids).toEqual([
    'sandbox-anz_data',
    'sandbox-contact_data',
    'sandbox-deployments',
    'sandbox-governance',
    'sandbox-ticketing',
  ]);
  const ticketing = await runtime.store.get('sandbox-ticketing');
  expect(ticketing?.secrets.refreshToken).toEqual(expect.any(String));
  const created = await registry.invoke(runtime, 'ticketing.create_ticket', {
    connection: 'sandbox-ticketing',
    input: { subject: 'VPN down', description: 'Nobody can connect.' },
  });
  expect(created.output.ticket.id).toEqual(expect.any(Number));
  // Governance has only writes: its admin key creates a project.
  const project = await registry.invoke(runtime, 'governance.create_project', {
    connection: 'sandbox-governance',
    input: { name: 'Agents', organization_id: 'org-acme' },
  });
  expect(project.output.project_id).toEqual(expect.any(String));
  // Every other connection makes its integration's free authenticated read through API Call.
  for (const id of ['deployments', 'anz_data', 'contact_data']) {
    const check = registry.integration(id)?.connectionCheck;
    const path = check && 'path' in check ? check.path : undefined;
    expect(path, id).toEqual(expect.any(String));
    const read = await registry.invoke(runtime, `${id}.api_call` as 'ticketing.api_call', {
      connection: `sandbox-${id}`,
      input: { method: 'GET', [id === 'deployments' ? 'path' : 'endpoint']: path } as never,
    });
    expect((read.output as { status: number }).status, id).toBe(200);
  }
});

it('refuses an integration the registry does not have, before connecting anything', async () => {
  await expect(
    sandboxConnections(sandbox, { registry: { integration: () => undefined }, integrations: ['ticketing'] }),
  ).rejects.toMatchObject({ code: 'input_invalid' });
});

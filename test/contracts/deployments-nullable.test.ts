import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/model/clock.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { type CatalogInput, type CatalogStepName, catalogInvokers } from '../support/catalog-invoke.js';
import { nockedFetch } from '../support/nocked-fetch.js';
import { nullHeavyInstance } from './support/openapi-contract.js';
import { vercel } from './support/provider-contracts.js';

const HOST = 'https://api.vercel.com';

function invoke<const Id extends CatalogStepName>(stepId: Id, input: CatalogInput<Id>) {
  const clock = new ManualClock();
  const store = new MemoryConnectionStore([
    {
      id: 'd',
      integration: 'deployments',
      kind: 'oauth2_no_refresh',
      fields: {},
      secrets: { accessToken: 'token-0123456789' },
      createdAt: clock.now(),
      updatedAt: clock.now(),
    },
  ]);
  const runtime = new Runtime({
    store,
    clock,
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
  });
  return catalogInvokers(runtime, 'd').invoke(stepId, input);
}

/** Every deployment shape the description gives for an answer, each with every nullable field null. */
function nullHeavyDeployments(
  method: string,
  path: string,
  pick: (body: Record<string, unknown>) => unknown,
) {
  const schema = pick(vercel.responseSchema(method, path, 200) as Record<string, unknown>) as Record<
    string,
    unknown
  >;
  const alternatives = ((schema.oneOf ?? [schema]) as unknown[]).map((alternative) => {
    const resolved = vercel.resolveSchema(alternative);
    const instance = nullHeavyInstance(vercel, resolved) as Record<string, unknown>;
    const gitSource = (resolved.properties as Record<string, unknown> | undefined)?.gitSource;
    // Every kind of git source, each with its nullable `ref` null.
    const sources = gitSource
      ? ((vercel.resolveSchema(gitSource).oneOf as unknown[]) ?? [gitSource]).map((source) =>
          nullHeavyInstance(vercel, source),
        )
      : [undefined];
    return sources.map((source) => ({ ...instance, ...(source ? { gitSource: source } : {}) }));
  });
  return alternatives.flat();
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('deployment outputs take every null the provider description allows', () => {
  const single = nullHeavyDeployments('POST', '/v13/deployments', (body) => body);
  it(`create_deployment accepts each of the ${single.length} answer shapes (deployment kinds by git source) with their nullable fields null`, async () => {
    const schema = vercel.responseSchema('POST', '/v13/deployments', 200);
    for (const deployment of single) {
      expect(vercel.conforms(schema, deployment)).toEqual([]);
      nock(HOST).post('/v13/deployments').reply(200, deployment);
      const result = await invoke('deployments.create_deployment', {
        project: 'web',
        repository: 'acme/web',
        branch: 'main',
      });
      expect(result.output).toMatchObject({ deployment: { id: 'x', target: null, inspector_url: null } });
    }
  });

  it('list_deployments accepts list items with every nullable field null', async () => {
    const [item] = nullHeavyDeployments(
      'GET',
      '/v6/deployments',
      (body) => vercel.resolveSchema((body.properties as Record<string, unknown>).deployments).items,
    );
    // The description leaves `state` optional on list items; every answer seen has it, and the step needs it.
    const page = {
      deployments: [{ ...(item as object), state: 'READY' }],
      pagination: { count: 1, next: null, prev: null },
    };
    expect(vercel.conforms(vercel.responseSchema('GET', '/v6/deployments', 200), page)).toEqual([]);
    nock(HOST).get('/v6/deployments').query(true).reply(200, page);
    const result = await invoke('deployments.list_deployments', {});
    expect(result.output).toMatchObject({
      deployments: [{ id: 'x', inspector_url: null, error_message: null }],
    });
  });
});

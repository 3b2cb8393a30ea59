import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullDeployment } from '../steps/deployments/deployments-fixture.js';
import { type ContractFixture, contractFixture } from './support/contract-fixture.js';
import { expectConforming, vercel } from './support/provider-contracts.js';

let fx: ContractFixture;
beforeAll(async () => {
  fx = await contractFixture();
  fx.sandbox.deployments.seedDeployments(5);
});
afterAll(() => fx.close());

describe('deployments steps against the provider description (requests and the sandbox answers)', () => {
  it('list_deployments with every filter, and its next page', async () => {
    const first = await fx.exchangesOf('deployments.list_deployments', {
      project: 'web',
      state: ['READY', 'BUILDING'],
      environment: 'preview',
      since: '2026-01-01',
      limit: 2,
    });
    const cursor = (first.output as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBeNull();
    const second = await fx.exchangesOf('deployments.list_deployments', { project: 'web', limit: 2, cursor });
    expectConforming([...first.exchanges, ...second.exchanges]);
  });

  it('create_deployment from the project link, with settings and meta', async () => {
    const { exchanges } = await fx.exchangesOf('deployments.create_deployment', fullDeployment('web'));
    expect(exchanges.map((exchange) => `${exchange.method} ${exchange.path}`)).toEqual([
      'GET /v9/projects/web',
      'POST /v13/deployments',
    ]);
    expectConforming(exchanges);
  });

  it('create_deployment from a named repository, in a team', async () => {
    const { exchanges } = await fx.exchangesOf(
      'deployments.create_deployment',
      { project: 'shop', repository: 'acme/shop', branch: 'main' },
      'deploys-team',
    );
    expect(exchanges.every((exchange) => exchange.query.get('teamId') === 'team_acme')).toBe(true);
    expectConforming(exchanges);
  });

  it('cancel_deployment', async () => {
    const created = await fx.invoke('deployments.create_deployment', {
      project: 'web',
      branch: 'main',
    });
    const { exchanges } = await fx.exchangesOf('deployments.cancel_deployment', {
      deployment_id: created.output.deployment.id,
    });
    expectConforming(exchanges);
  });

  it('api_call: a deployment, the project list, teams and the user', async () => {
    const [deployment] = fx.sandbox.deployments.seedDeployments(1);
    const exchanges = [];
    for (const path of [`/v13/deployments/${deployment?.id}`, '/v10/projects', '/v2/teams', '/v2/user']) {
      exchanges.push(...(await fx.exchangesOf('deployments.api_call', { method: 'GET', path })).exchanges);
    }
    expectConforming(exchanges);
  });
});

describe('the deployments contract checker finds what it is for', () => {
  it('flags a body field the create description does not have, and a wrong state enum in an answer', () => {
    expect(
      vercel.requestProblems({
        method: 'POST',
        path: '/v13/deployments',
        query: new URLSearchParams(),
        body: { name: 'web', branchName: 'main' },
      }),
    ).toContain('POST /v13/deployments: body.branchName is not in the description');
    const problems = vercel.responseProblems({
      method: 'GET',
      path: '/v6/deployments',
      query: new URLSearchParams(),
      body: undefined,
      status: 200,
      response: {
        deployments: [{ uid: 'dpl_1', state: 'DONE' }],
        pagination: { count: 1, next: null, prev: null },
      },
    });
    expect(problems.join('\n')).toMatch(/state|enum|required/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Registry } from '../../../src/catalog/registry.js';
import { defineStep } from '../../../src/kit/index.js';
import { deployments } from '../../../steps/deployments/integration.js';
import { teamOptions } from '../../../steps/deployments/lib/deployments-options.js';
import { type DeploymentsFixture, deploymentsFixture, newDeployment } from './deployments-fixture.js';

/**
 * The deployments fields' choices from the sandbox (ada: personal projects
 * web and api; team acme with shop and docs; team globex, sam's, with portal).
 */
let fx: DeploymentsFixture;
beforeAll(async () => {
  fx = await deploymentsFixture({ teamId: 'team_acme' });
});
afterAll(() => fx.close());

const options = (step: string, field: string, extra: Record<string, unknown> = {}) =>
  fx.registry.options(fx.runtime, step, field, { connection: 'vercel-main', ...extra });

describe('deployments options', () => {
  it('project: the team’s projects, searchable, within the embedder’s project constraints', async () => {
    const all = await options('deployments.create_deployment', 'project');
    expect(all.items.map((item) => item.value).sort()).toEqual(['docs', 'shop']);
    expect((await options('deployments.list_deployments', 'project', { query: 'sho' })).items).toEqual([
      expect.objectContaining({ value: 'shop', label: 'shop' }),
    ]);
    const limited = await options('deployments.create_deployment', 'project', {
      constraints: { projects: ['docs'] },
      query: 'o',
    });
    expect(limited.items.map((item) => item.value)).toEqual(['docs']);
  });

  it('deployment for cancel: only the queued or building ones', async () => {
    const before = await options('deployments.cancel_deployment', 'deployment_id');
    expect(before.items).toEqual([]);
    const id = await newDeployment(fx, { project: 'shop' });
    fx.runtime.answers.clear();
    const queued = await options('deployments.cancel_deployment', 'deployment_id');
    expect(queued.items).toEqual([expect.objectContaining({ value: id, description: 'QUEUED' })]);
    fx.clock.advance(120_000); // READY: no longer cancelable
    fx.runtime.answers.clear();
    expect((await options('deployments.cancel_deployment', 'deployment_id')).items).toEqual([]);
  });

  it('environment target: the closed list, no connection needed', async () => {
    const targets = await fx.registry.options(fx.runtime, 'deployments.create_deployment', 'environment');
    expect(targets.items.map((item) => item.value)).toEqual(['production', 'preview', 'development']);
  });

  it('team: the teams the connection’s user belongs to', async () => {
    const step = defineStep({
      id: 'deployments.pick_team_for_test',
      integration: deployments,
      title: 'Pick team',
      description: 'Test only.',
      agentDescription: 'Test only.',
      keywords: [],
      input: z.object({ team: z.string() }),
      output: z.object({}),
      access: 'read',
      idempotent: true,
      variables: {},
      options: { team: teamOptions },
      run: async () => ({}),
    });
    const registry = new Registry().registerIntegration(deployments).registerStep(step);
    const teams = await registry.options(fx.runtime, step.id, 'team', { connection: 'vercel-main' });
    expect(teams.items).toEqual([{ value: 'team_acme', label: 'Acme', description: 'acme' }]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { addSandboxDeployments, cli, jsonError, refusedRun, runStep, useCliWorld } from './cli-harness.js';

const world = useCliWorld('toolsteps-cli-constraints-', { env: ['TS_DEPLOY_TOKEN'] });

const deploymentsSent = () =>
  world.sandbox.server.requestLog.filter((entry) => entry.mount === 'deployments');

beforeAll(async () => {
  const added = await addSandboxDeployments(
    world.sandbox,
    'vercel',
    'TS_DEPLOY_TOKEN',
    '--team-id',
    'team_acme',
  );
  expect(added.code).toBe(0);
});

/** Runs a deployments step on the connection above. */
const onVercel = (step: string, input: unknown, ...flags: string[]) =>
  runStep(step, 'vercel', input, ...flags);
/** Runs a deployments step on the connection above that must be refused before sending: its JSON error. */
const refusedOnVercel = (step: string, input: unknown, ...flags: string[]) =>
  refusedRun(step, 'vercel', input, ...flags);

describe('toolsteps run --constraint', () => {
  it('scopes deployment steps to the given projects: in scope runs', async () => {
    const result = await onVercel(
      'deployments.list_deployments',
      { project: 'shop' },
      '--constraint',
      'projects=shop,docs',
      '--json',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).meta).toMatchObject({ step: 'deployments.list_deployments' });
  });

  it('an out-of-scope project is refused before sending (PermissionError: exit 2), nothing sent', async () => {
    const before = deploymentsSent().length;
    const created = await onVercel(
      'deployments.create_deployment',
      { project: 'shop', branch: 'main' },
      '--constraint',
      'projects=docs',
      '--constraint',
      'projects=blog',
      '--json',
    );
    expect(created.code).toBe(2);
    expect(jsonError(created)).toMatchObject({
      code: 'permission_denied',
      context: { allowedProjects: ['docs', 'blog'], project: 'shop' },
    });
    const listed = await onVercel(
      'deployments.list_deployments',
      { project: 'docs' },
      '--constraint',
      'projects=shop',
    );
    expect(listed.code).toBe(2);
    expect(listed.err).toContain('error [permission_denied]');
    expect(deploymentsSent().length).toBe(before);
    expect(`${created.out}${listed.err}`).not.toContain(process.env.TS_DEPLOY_TOKEN);
  });

  it('an empty list allows no project', async () => {
    const before = deploymentsSent().length;
    const refused = await refusedOnVercel(
      'deployments.list_deployments',
      { project: 'shop' },
      '--constraint',
      'projects=',
    );
    expect(refused).toMatchObject({ code: 'permission_denied', context: { allowedProjects: [] } });
    expect(deploymentsSent().length).toBe(before);
  });

  it('a malformed --constraint is bad input (exit 2), nothing sent', async () => {
    const before = deploymentsSent().length;
    for (const value of ['projects', '=shop', 'two words=shop']) {
      const result = await cli(
        'run',
        'deployments.list_deployments',
        '--connection',
        'vercel',
        '--constraint',
        value,
        '--json',
      );
      expect(result.code).toBe(2);
      expect(jsonError(result)).toMatchObject({ code: 'input_invalid' });
      expect(jsonError(result).message).toContain('--constraint');
    }
    expect(deploymentsSent().length).toBe(before);
  });
});

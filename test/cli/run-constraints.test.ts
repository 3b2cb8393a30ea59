import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { cli, jsonError } from './cli-harness.js';

let home: string;
let sandbox: Sandbox;

const deploymentsSent = () => sandbox.server.requestLog.filter((entry) => entry.mount === 'deployments');

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-cli-constraints-'));
  process.env.TOOLSTEPS_HOME = home;
  sandbox = await startSandbox();
  // A deployments connection to the sandbox for the seeded user "ada" in team acme (projects shop, docs).
  process.env.TS_DEPLOY_TOKEN = sandbox.deployments.issueToken(1);
  const added = await cli(
    'connections',
    'add',
    'deployments',
    '--id',
    'vercel',
    '--access-token-env',
    'TS_DEPLOY_TOKEN',
    '--team-id',
    'team_acme',
    '--base-url',
    sandbox.baseUrl('deployments'),
  );
  expect(added.code).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
  await rm(home, { recursive: true, force: true });
  delete process.env.TOOLSTEPS_HOME;
  delete process.env.TS_DEPLOY_TOKEN;
});

describe('toolsteps run --constraint', () => {
  it('scopes deployment steps to the given projects: in scope runs', async () => {
    const result = await cli(
      'run',
      'deployments.list_deployments',
      '--connection',
      'vercel',
      '--input',
      '{"project":"shop"}',
      '--constraint',
      'projects=shop,docs',
      '--json',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).meta).toMatchObject({ step: 'deployments.list_deployments' });
  });

  it('an out-of-scope project is refused as the error says (PermissionError: exit 1), nothing sent', async () => {
    const before = deploymentsSent().length;
    const created = await cli(
      'run',
      'deployments.create_deployment',
      '--connection',
      'vercel',
      '--input',
      '{"project":"shop","branch":"main"}',
      '--constraint',
      'projects=docs',
      '--constraint',
      'projects=blog',
      '--json',
    );
    expect(created.code).toBe(1);
    expect(jsonError(created)).toMatchObject({
      code: 'permission_denied',
      context: { allowedProjects: ['docs', 'blog'], project: 'shop' },
    });
    const listed = await cli(
      'run',
      'deployments.list_deployments',
      '--connection',
      'vercel',
      '--input',
      '{"project":"docs"}',
      '--constraint',
      'projects=shop',
    );
    expect(listed.code).toBe(1);
    expect(listed.err).toContain('error [permission_denied]');
    expect(deploymentsSent().length).toBe(before);
    expect(`${created.out}${listed.err}`).not.toContain(process.env.TS_DEPLOY_TOKEN);
  });

  it('an empty list allows no project', async () => {
    const before = deploymentsSent().length;
    const result = await cli(
      'run',
      'deployments.list_deployments',
      '--connection',
      'vercel',
      '--input',
      '{"project":"shop"}',
      '--constraint',
      'projects=',
      '--json',
    );
    expect(result.code).toBe(1);
    expect(jsonError(result)).toMatchObject({ code: 'permission_denied', context: { allowedProjects: [] } });
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

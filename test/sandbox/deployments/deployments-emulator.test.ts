import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/model/clock.js';
import { definedOnly } from '../../../src/values/defined-only.js';

/** The emulator on its own, spoken to over HTTP the way the provider is. */
describe('deployments sandbox emulator', () => {
  let sandbox: Sandbox;
  let clock: ManualClock;
  let token: string;
  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 10));
    sandbox = await startSandbox({ clock, deployments: { failingBranches: ['broken', 'bad'] } });
    token = sandbox.deployments.issueToken();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  const send = async (method: string, path: string, body?: unknown, auth = true) => {
    const response = await fetch(`${sandbox.baseUrl('deployments')}${path}`, {
      method,
      headers: definedOnly({
        authorization: auth ? `Bearer ${token}` : undefined,
        'content-type': body === undefined ? undefined : 'application/json',
      }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };

  it('answers with rate-limit headers, the reset in epoch seconds', async () => {
    const response = await send('GET', '/v9/projects');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('120');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(response.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 0, 1, 12, 1, 0) / 1000));
  });

  it('answers errors as {"error": {"code", "message"}}', async () => {
    expect(await send('GET', '/v9/nothing-here')).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', message: expect.any(String) } },
    });
    expect(await send('GET', '/v9/projects', undefined, false)).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', missingToken: true } },
    });
    token = 'vcl_at_unknown';
    expect(await send('GET', '/v9/projects')).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', invalidToken: true } },
    });
  });

  it('validates creates like the provider: name, files xor gitSource, target', async () => {
    const git = { type: 'github', org: 'ada', repo: 'web', ref: 'main' };
    expect((await send('POST', '/v13/deployments', { gitSource: git })).body.error.code).toBe('bad_request');
    expect((await send('POST', '/v13/deployments', { name: 'web', files: [], gitSource: git })).status).toBe(
      400,
    );
    expect((await send('POST', '/v13/deployments', { name: 'web' })).status).toBe(400);
    const development = await send('POST', '/v13/deployments', {
      name: 'web',
      target: 'development',
      gitSource: git,
    });
    expect(development).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
    expect((await send('POST', '/v13/deployments', { name: 'nope', gitSource: git })).status).toBe(404);
    const staging = await send('POST', '/v13/deployments', {
      name: 'web',
      target: 'staging',
      gitSource: git,
    });
    expect(staging.body).toMatchObject({ target: 'staging', readyState: 'QUEUED' });
  });

  it('moves builds on the clock, ends a failing branch in ERROR, and cancels only unfinished ones', async () => {
    const git = (ref: string) => ({ name: 'web', gitSource: { type: 'github', repoId: 1001, ref } });
    const good = (await send('POST', '/v13/deployments', git('main'))).body;
    clock.advance(1);
    const bad = (await send('POST', '/v13/deployments', git('bad'))).body;
    expect(good.createdAt).not.toBe(bad.createdAt);
    const states = async () =>
      [
        (await send('GET', `/v13/deployments/${good.id}`)).body.readyState,
        (await send('GET', `/v13/deployments/${bad.id}`)).body.readyState,
      ] as string[];
    expect(await states()).toEqual(['QUEUED', 'QUEUED']);
    clock.advance(6_000);
    expect(await states()).toEqual(['INITIALIZING', 'INITIALIZING']);
    clock.advance(3_000);
    expect(await states()).toEqual(['BUILDING', 'BUILDING']);
    clock.advance(45_000);
    expect(await states()).toEqual(['READY', 'ERROR']);
    expect((await send('PATCH', `/v12/deployments/${good.id}/cancel`)).body).toMatchObject({
      error: { code: 'bad_request' },
    });
    const byUrl = await send('GET', `/v13/deployments/${good.url}`);
    expect(byUrl.body.id).toBe(good.id);
  });

  it('pages the deployment list backwards with pagination.next and refuses bad parameters', async () => {
    sandbox.deployments.seedDeployments(5, { project: 'api' });
    const first = await send('GET', '/v6/deployments?projectId=api&limit=2');
    expect(first.body.deployments).toHaveLength(2);
    expect(first.body.pagination.next).toBe(first.body.deployments[1].created);
    const second = await send(
      'GET',
      `/v6/deployments?projectId=api&limit=2&until=${first.body.pagination.next}`,
    );
    expect(second.body.deployments[0].created).toBeLessThan(first.body.pagination.next);
    expect((await send('GET', '/v6/deployments?limit=101')).status).toBe(400);
    expect((await send('GET', '/v6/deployments?state=DONE')).status).toBe(400);
  });

  it('keeps teams apart: a team the user is not in is forbidden', async () => {
    const acme = await send('GET', '/v9/projects?teamId=team_acme');
    expect(acme.body.projects.map((project: { name: string }) => project.name).sort()).toEqual([
      'docs',
      'shop',
    ]);
    expect(await send('GET', '/v9/projects?slug=globex')).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden' } },
    });
    expect((await send('GET', '/v2/teams/team_globex')).status).toBe(403);
  });

  it('hides encrypted and sensitive env values unless decryption is asked for', async () => {
    const envs = (await send('GET', '/v9/projects/shop/env?teamId=team_acme')).body.envs as {
      key: string;
      value: string;
    }[];
    const database = envs.find((env) => env.key === 'DATABASE_URL');
    expect(database?.value).not.toContain('postgres://');
    const decrypted = (await send('GET', '/v9/projects/shop/env?teamId=team_acme&decrypt=true')).body
      .envs as {
      key: string;
      value: string;
    }[];
    expect(decrypted.find((env) => env.key === 'DATABASE_URL')?.value).toContain('postgres://');
  });

  it('forgets everything on reset and seeds afresh', async () => {
    await send('POST', '/v10/projects', { name: 'temp' });
    sandbox.deployments.reset();
    token = sandbox.deployments.issueToken();
    expect((await send('GET', '/v9/projects/temp')).status).toBe(404);
    expect((await send('GET', '/v9/projects/web')).status).toBe(200);
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

let world: BuilderWorld;
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-builder-page-'));
  await mkdir(path.join(folder, 'page'));
  await writeFile(path.join(folder, 'page', 'index.html'), '<!doctype html><title>builder</title>');
  await writeFile(path.join(folder, 'page', 'kit.js'), 'export {};');
  await writeFile(path.join(folder, 'page', '.env'), 'SECRET=1');
  await writeFile(path.join(folder, 'outside.txt'), 'not for the page');
  await symlink(path.join(folder, 'outside.txt'), path.join(folder, 'page', 'link.txt'));
  world = await openBuilderWorld({ staticRoot: path.join(folder, 'page') });
});
afterAll(async () => {
  await world.close();
  await rm(folder, { recursive: true, force: true });
});

const get = (pathname: string) => fetch(`${world.server.url}${pathname}`);

describe('the page folder the builder server serves', () => {
  it('serves index.html at / and files by type', async () => {
    const page = await get('/');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('<title>builder</title>');
    expect((await get('/kit.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('serves nothing outside the folder, no dot-file, and nothing that is missing', async () => {
    for (const pathname of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/link.txt',
      '/.env',
      '/missing.js',
      '/%E0%A4%A',
    ]) {
      expect((await get(pathname)).status, pathname).toBe(404);
    }
  });

  it('the page’s own origin may call the API', async () => {
    const answer = await world.api('/v1/integrations', { origin: world.server.url });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(world.server.url);
  });
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/program.js';
import { ANZ_DATA_SANDBOX_KEY, CONTACT_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { packageRoot } from '../../src/disk/package-root.js';
import {
  addSandboxTicketing,
  type CliWorld,
  captureOutput,
  cli,
  closeCliWorld,
  openCliWorld,
} from './cli-harness.js';

let world: CliWorld;
beforeAll(async () => {
  world = await openCliWorld('toolsteps-ui-command-');
  expect((await addSandboxTicketing(world.sandbox, 'desk', 'TS_UI_TOKEN')).code).toBe(0);
});
afterAll(() => closeCliWorld(world, 'TS_UI_TOKEN'));

/** Runs a serving command in this process until it prints `ready`, and stops it as a terminal would (SIGTERM). */
async function serving(args: string[], ready: RegExp) {
  const { result, restore } = captureOutput();
  const done = runCli(args);
  for (let waited = 0; !ready.test(`${result.out}${result.err}`) && waited < 20_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    out: () => result.out,
    err: () => result.err,
    stop: async () => {
      process.emit('SIGTERM');
      const code = await done;
      restore();
      return code;
    },
  };
}

describe('toolsteps ui', () => {
  it('prints a loopback URL whose fragment holds a token for the default tenant, on the CLI’s connection store', async () => {
    const running = await serving(['ui', '--port', '0'], /Open http/);
    try {
      const printed = /Open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(running.out());
      expect(printed, running.out() + running.err()).not.toBeNull();
      const [, base, token] = printed!;
      expect(running.out()).toContain('nothing was opened');
      const listed = await fetch(`${base}/v1/connections`, { headers: { authorization: `Bearer ${token}` } });
      expect((await listed.json()).connections.map((item: { id: string }) => item.id)).toEqual(['desk']);
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(existsSync(path.join(packageRoot(), 'dist', 'ui', 'index.html')) ? 200 : 404);
      // The page calls the API from the server's own origin.
      const sameOrigin = await fetch(`${base}/v1/integrations`, {
        headers: { authorization: `Bearer ${token}`, origin: base! },
      });
      expect(sameOrigin.headers.get('access-control-allow-origin')).toBe(base);
      const started = await fetch(`${base}/v1/connections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ integration: 'ticketing', id: 'desk-2' }),
      });
      const { authorizeUrl } = await started.json();
      // The sandbox the command started is the provider: its allow screen leads back to this server.
      const allow = await fetch(authorizeUrl, { redirect: 'manual' });
      expect(allow.headers.get('location')).toMatch(new RegExp(`^${base}/v1/oauth/callback`));
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });

  it('serves another tenant’s page from the same stores, and that page sees none of the default tenant’s accounts', async () => {
    const running = await serving(['ui', '--port', '0', '--tenant', 'globex'], /Open http/);
    try {
      const [, base, token] = /Open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(running.out())!;
      const headers = { authorization: `Bearer ${token}` };
      const listed = await fetch(`${base}/v1/connections`, { headers });
      expect((await listed.json()).connections).toEqual([]);
      const probed = await fetch(`${base}/v1/connections/desk/test`, { method: 'POST', headers });
      expect([probed.status, (await probed.json()).error.code]).toEqual([404, 'not_found']);
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });
});

describe('toolsteps serve', () => {
  it('serves the API and its OpenAPI document, and prints a builder token on stderr only', async () => {
    const running = await serving(
      ['serve', '--port', '0', '--sandbox', '--allow-origin', 'https://builder.example'],
      /builder token/,
    );
    try {
      const [, base] = /builder API at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(running.out()) ?? [];
      const [, token] = /: (tsb_\S+)/.exec(running.err()) ?? [];
      expect(running.out()).not.toContain(token);
      const document = await fetch(`${base}/v1/openapi.json`);
      expect((await document.json()).openapi).toBe('3.1.0');
      const hits = await fetch(`${base}/v1/steps?q=zendesk`, {
        headers: { authorization: `Bearer ${token}`, origin: 'https://builder.example' },
      });
      expect(hits.headers.get('access-control-allow-origin')).toBe('https://builder.example');
      expect((await hits.json()).hits.length).toBeGreaterThan(0);
      // The key forms' keys are the sandbox's, printed: nothing else on a page says them.
      expect(running.err()).toContain(`contact_data: API key ${CONTACT_DATA_SANDBOX_KEY}`);
      expect(running.err()).toContain(`anz_data:     API key ${ANZ_DATA_SANDBOX_KEY}`);
      const saved = await fetch(`${base}/v1/connections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ integration: 'contact_data', apiKey: CONTACT_DATA_SANDBOX_KEY }),
      });
      expect(saved.status).toBe(200);
      const { connection } = await saved.json();
      await fetch(`${base}/v1/connections/${connection.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });

  it('--sandbox-url: sign-ins go to a sandbox started apart, not to the real provider', async () => {
    const running = await serving(
      ['serve', '--port', '0', '--sandbox-url', world.sandbox.url],
      /builder token/,
    );
    try {
      const [, base] = /builder API at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(running.out()) ?? [];
      const [, token] = /: (tsb_\S+)/.exec(running.err()) ?? [];
      expect(running.err()).toContain(`Sandbox at ${world.sandbox.url}`);
      const started = await fetch(`${base}/v1/connections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ integration: 'ticketing' }),
      });
      const { authorizeUrl } = await started.json();
      expect(new URL(authorizeUrl).origin).toBe(new URL(world.sandbox.url).origin);
      const allow = await fetch(authorizeUrl, { redirect: 'manual' });
      expect(allow.headers.get('location')).toMatch(new RegExp(`^${base}/v1/oauth/callback`));
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });

  it('refuses --sandbox with --sandbox-url, and a sandbox URL that is not http(s)', async () => {
    for (const args of [
      ['--sandbox', '--sandbox-url', world.sandbox.url],
      ['--sandbox-url', 'file:///tmp'],
    ]) {
      const { result, restore } = captureOutput();
      const code = await runCli(['serve', '--port', '0', ...args]);
      restore();
      expect(code).not.toBe(0);
      expect(result.err).toMatch(/--sandbox-url/);
    }
  });
});

describe('toolsteps serve with TOOLSTEPS_TOKEN_KEY', () => {
  const KEY = 'serve-suite-token-key-0123456789abcdef';
  afterAll(() => {
    delete process.env.TOOLSTEPS_TOKEN_KEY;
  });

  it("takes a scoped builder token for its tenant's records, and refuses an mcp one, a revoked one and another key's", async () => {
    process.env.TOOLSTEPS_TOKEN_KEY = KEY;
    const mint = async (tenant: string, scope: string) =>
      JSON.parse((await cli('--tenant', tenant, 'tokens', 'create', '--scope', scope, '--json')).out) as {
        token: string;
        id: string;
      };
    const builder = await mint('default', 'builder');
    const globex = await mint('globex', 'builder');
    const mcp = await mint('default', 'mcp');
    const revoked = await mint('default', 'builder');
    expect((await cli('tokens', 'revoke', revoked.id)).code).toBe(0);
    process.env.TOOLSTEPS_TOKEN_KEY = 'another-deployment-key-0123456789abcdef';
    const foreign = await mint('default', 'builder');
    process.env.TOOLSTEPS_TOKEN_KEY = KEY;
    const running = await serving(['serve', '--port', '0'], /builder token/);
    try {
      const [, base] = /builder API at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(running.out()) ?? [];
      const list = (token: string) =>
        fetch(`${base}/v1/connections`, { headers: { authorization: `Bearer ${token}` } });
      const mine = await list(builder.token);
      expect((await mine.json()).connections.map((item: { id: string }) => item.id)).toEqual(['desk']);
      expect((await (await list(globex.token)).json()).connections).toEqual([]);
      for (const refused of [mcp, revoked, foreign]) expect((await list(refused.token)).status).toBe(401);
      // The session token printed at start still works beside them.
      const [, session] = /: (tsb_\S+)/.exec(running.err()) ?? [];
      expect((await list(session!)).status).toBe(200);
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });
});

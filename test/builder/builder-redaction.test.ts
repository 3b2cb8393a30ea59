import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/logger.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { type HostileProvider, startHostileProvider } from '../support/hostile-provider.js';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

/** An API key whose base64 has `+`, `/` and padding, so each spelling of it differs. */
const API_KEY = 'anz_live_7Kq2Lw8Zr5Xv1Nm4Pj7Hs3???Dc6Gb0a';
const bytes = Buffer.from(API_KEY, 'utf8');
const base64 = bytes.toString('base64');
const urlSafe = (text: string) => text.replaceAll('+', '-').replaceAll('/', '_');

/** Every spelling of the key that must not reach the page, and its first 8 characters in each. */
const FORBIDDEN = [
  API_KEY,
  base64,
  base64.replace(/=+$/, ''),
  urlSafe(base64),
  encodeURIComponent(base64),
  bytes.toString('hex'),
].flatMap((form) => [form, form.slice(0, 8)]);

/** Every line the tenant's runtime logs: the builder's runtime as it makes it by default, plus this logger. */
const logger = new MemoryLogger();
/** The server's tenant stores, held here so that runtime and the audit trail's read use them. */
const tenants = new MemoryTenantStores();
let hostile: HostileProvider;
let world: BuilderWorld;
beforeAll(async () => {
  // Every request is answered by the script below: nothing passes through to an upstream.
  hostile = await startHostileProvider('http://127.0.0.1:9');
  world = await openBuilderWorld({
    tenants,
    runtimeFor: (tenant) => new Runtime({ tenant, tenantStores: tenants, caller: 'builder', logger }),
    adjustConnect: (connect) => {
      const sandboxUrl = new URL(String(connect.anz_data!.fields!.baseUrl));
      connect.anz_data = {
        ...connect.anz_data!,
        fields: { baseUrl: `${hostile.origin}${sandboxUrl.pathname}` },
      };
    },
  });
  // The key is checked at save: the free balance read answers as the provider would.
  hostile.script((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"credits_remaining":5}');
    return request.path.endsWith('/credits');
  });
  const added = await world.json('/v1/connections', {
    body: { integration: 'anz_data', id: 'anz', apiKey: API_KEY },
  });
  expect(added.status).toBe(200);
});
afterAll(async () => {
  await world?.close();
  await hostile?.close();
});

describe('a hostile provider echoing the key in forms we never send, through the builder’s test run', () => {
  it('the answer, the log and the audit trail hold neither the key’s base64 or hex nor a prefix cut before a mid-text ellipsis', async () => {
    const aligned = Buffer.concat([Buffer.from('{"key":"'), bytes, Buffer.from('"}')]).toString('base64');
    hostile.script((request, response) => {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      const said = [
        `invalid key ${base64} (url: ${urlSafe(base64.replace(/=+$/, ''))}, hex ${bytes.toString('hex')})`,
        `token ${API_KEY.slice(0, 12)}… rest of text`,
        `encoded ${encodeURIComponent(base64).slice(0, 14)}... rest`,
        `blob ${aligned}`,
      ].join('; ');
      response.writeHead(400, { 'content-type': 'text/plain' }).end(said);
      return true;
    });
    const answer = await world.api('/v1/steps/anz_data.enrich_company/test', {
      method: 'POST',
      body: { connection: 'anz', input: { abn: '18 123 456 789' } },
    });
    const text = await answer.text();
    expect(answer.status).toBeGreaterThanOrEqual(400);
    // The provider's words reached the answer: what is missing was redacted, not dropped.
    expect(text).toContain('rest of text');
    expect(text).toContain('[redacted]');
    const logged = JSON.stringify(logger.lines);
    expect(logged).toContain('builder test run');
    const audited = JSON.stringify(await tenants.forTenant(parseTenantId('acme')).audit.read());
    for (const seen of [text, logged, audited]) {
      for (const form of FORBIDDEN) expect(seen).not.toContain(form);
    }
  });
});

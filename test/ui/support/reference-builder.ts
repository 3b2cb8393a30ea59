import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxConnectSettings } from '../../../cli/sandbox-connect-settings.js';
import { CONTACT_DATA_SANDBOX_KEY, type Sandbox, startSandbox } from '../../../sandbox/index.js';
import { bundleUi } from '../../../scripts/bundle-ui.mjs';
import { type RunningBuilderServer, startBuilderServer } from '../../../src/builder/builder-server.js';
import { SessionTokens } from '../../../src/builder/session-tokens.js';
import type { Clock } from '../../../src/model/clock.js';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemoryTenantStores } from '../../../src/store/memory/memory-tenant-stores.js';
import { createRegistry } from '../../../steps/index.js';

/**
 * The reference builder as `toolsteps ui` runs it: the sandbox, the builder
 * API over the tenants' stores with the sandbox's connect settings
 * (ticketing by redirect, deployments in a pop-up, the data integrations by
 * API key), and the page bundled from ui/ (scripts/bundle-ui.mjs, what the
 * build writes to dist/ui/) served at `/`. Tokens are minted here, as the
 * command mints the one in the address it prints.
 */
export interface ReferenceBuilder {
  sandbox: Sandbox;
  server: RunningBuilderServer;
  /** The tenants' stores the API keeps its connections in, for a test to look at or tend them as a worker would. */
  tenants: MemoryTenantStores;
  /** The API's and the page's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The page's address holding a fresh token of the tenant given at start. */
  pageUrl: string;
  /** The page's address with a token of `tenant` (expired already with `expired`). */
  pageUrlFor(tenant: string, options?: { expired?: boolean }): string;
  mintToken(tenant: string, ttlMs?: number): string;
  /** The sandbox's key for the contact-data API. */
  contactDataKey: string;
  /** Connects a contact-data account for `tenant` through the API, as the key form would. */
  connectContactData(tenant: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startReferenceBuilder(options: {
  tenant: string;
  allowedOrigins?: readonly string[];
  /** The sandbox's and the API's clock (a ManualClock lets a test pass 30 days in a call); session tokens keep the real one. */
  clock?: Clock;
}): Promise<ReferenceBuilder> {
  const pageRoot = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-ui-page-'));
  await bundleUi({ outdir: pageRoot });
  const sandbox = await startSandbox({
    webhooks: { firstRetryMs: 20 },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const tenants = new MemoryTenantStores();
  const tokens = new SessionTokens();
  // The page's own origin is known once the server listens: it is let in by a policy that reads it then.
  const allowed: string[] = [...(options.allowedOrigins ?? [])];
  const server = await startBuilderServer({
    registry: createRegistry(),
    tenants,
    tokens,
    dedupe: new MemoryDedupeStore(),
    connect: sandboxConnectSettings(sandbox),
    allowedOrigins: allowed,
    staticRoot: pageRoot,
    port: 0,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const origin = new URL(server.url).origin;
  const mintToken = (tenant: string, ttlMs = 15 * 60_000) => tokens.mint(parseTenantId(tenant), { ttlMs });
  const pageUrlFor: ReferenceBuilder['pageUrlFor'] = (tenant, settings = {}) => {
    const token = mintToken(tenant, settings.expired ? 1 : undefined);
    return `${origin}/#token=${encodeURIComponent(token)}`;
  };
  return {
    sandbox,
    server,
    tenants,
    origin,
    pageUrl: pageUrlFor(options.tenant),
    pageUrlFor,
    mintToken,
    contactDataKey: CONTACT_DATA_SANDBOX_KEY,
    connectContactData: async (tenant) => {
      const answer = await fetch(`${origin}/v1/connections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mintToken(tenant)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ integration: 'contact_data', apiKey: CONTACT_DATA_SANDBOX_KEY }),
      });
      if (!answer.ok)
        throw new Error(`connecting contact data answered ${answer.status}: ${await answer.text()}`);
    },
    stop: async () => {
      await server.close();
      await sandbox.close();
      rmSync(pageRoot, { recursive: true, force: true });
    },
  };
}

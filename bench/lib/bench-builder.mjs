import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importBuilt } from './built-file.mjs';

/**
 * The builder API as `toolsteps serve` starts it, from the build under
 * measure: the steps' registry, in-memory tenant stores (tenant `bench`
 * holding `connections`), session tokens and the per-token rate limit
 * raised out of the way (a bench's clients share one token), with
 * `timeoutsMs` its connection timeouts (a counted run's). Answers the
 * server's URL, a session token for tenant `bench` and close().
 */
export async function startBenchBuilder(build, { connections = [], staticRoot, timeoutsMs } = {}) {
  const load = (file) => import(pathToFileURL(path.join(build, file)).href);
  const [{ startBuilderServer }, { SessionTokens }, { MemoryTenantStores }, { MemoryDedupeStore }, steps] =
    await Promise.all([
      load('src/builder/builder-server.js'),
      load('src/builder/session-tokens.js'),
      importBuilt(build, 'src/store/memory/memory-tenant-stores.js', 'src/tenants/memory-tenant-stores.js'),
      importBuilt(
        build,
        'src/store/memory/memory-dedupe-store.js',
        'src/store/dedupe/memory-dedupe-store.js',
      ),
      load('steps/index.js'),
    ]);
  const tenants = new MemoryTenantStores();
  for (const connection of connections) await tenants.forTenant('bench').connections.put(connection);
  const tokens = new SessionTokens();
  const running = await startBuilderServer({
    registry: steps.createRegistry(),
    tenants,
    tokens,
    dedupe: new MemoryDedupeStore(),
    staticRoot,
    rateLimit: { requests: 1_000_000_000 },
    ...(timeoutsMs
      ? {
          connectionLimits: {
            headersTimeoutMs: timeoutsMs,
            requestTimeoutMs: timeoutsMs,
            keepAliveTimeoutMs: timeoutsMs,
          },
        }
      : {}),
  });
  return { url: running.url, token: tokens.mint('bench', { ttlMs: 3_600_000 }), close: running.close };
}

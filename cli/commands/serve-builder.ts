import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../../sandbox/index.js';
import { packageRoot } from '../../src/disk/package-root.js';
import { InputError } from '../../src/errors/input-error.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import type { HealthChange } from '../../src/runtime/health-change.js';
import { launchBuilderServer, untilStopped } from '../builder-launch.js';
import { cliRegistry } from '../cli-context.js';
import { cliStores } from '../cli-stores.js';
import { cliTenant } from '../cli-tenant.js';
import type { KeepAliveFlags } from '../keep-alive-flags.js';
import { loadSandbox } from '../library-sandbox.js';
import { realConnectSettings } from '../real-connect-settings.js';
import { sandboxAt, sandboxConnectSettings } from '../sandbox-connect-settings.js';
import { sandboxNotice } from '../sandbox-notice.js';
import { servingKeepAlive } from './serving-keep-alive.js';

export interface ServeBuilderOptions {
  host: string;
  port: number;
  ttlMs: number;
  /** `ui`: serve the page folder and print the page's URL. */
  page: boolean;
  tenant?: string;
  sandbox?: boolean;
  /** A sandbox started apart: connect to it instead of the real providers. */
  sandboxUrl?: string;
  allowOrigin?: string[];
  publicUrl?: string;
  oauthClient?: string[];
  /** `serve`: keeps every tenant's connections alive on a schedule (`ui`, a developer's page, does not). */
  keepAliveLoop?: { flags: KeepAliveFlags; json: boolean };
}

/** The page the UI kit builds: whatever `dist/ui/` holds (404 for everything when it is absent). */
const pageFolder = () => path.join(packageRoot(), 'dist', 'ui');

/**
 * Where `serve` puts a health change: with Redis, on the event queue that
 * `toolsteps worker` forwards or runs (as it does trigger events); without,
 * one JSON line on stderr (`{"told": ...}`) for the operator's log.
 */
async function healthChangeSink(): Promise<{
  tell(change: HealthChange): Promise<void>;
  close(): Promise<void>;
}> {
  const { redisUrl } = await cliStores();
  if (!redisUrl) {
    return {
      tell: async (change) => {
        process.stderr.write(`${JSON.stringify({ told: change })}\n`);
      },
      close: async () => {},
    };
  }
  const [{ EventQueue }, { healthEvent }] = await Promise.all([
    import('../../src/coordination/event-queue.js'),
    import('../../src/runtime/health-change.js'),
  ]);
  const queue = await EventQueue.open({
    redisUrl,
    prefix: process.env.TOOLSTEPS_REDIS_PREFIX?.trim() || 'toolsteps',
  });
  return { tell: (change) => queue.add(healthEvent(change)), close: () => queue.close() };
}

/** What `serve` and `ui` run: the sandbox when asked, the builder server, a token, then until stopped. */
export async function serveBuilder(options: ServeBuilderOptions): Promise<void> {
  // The global --tenant (or TOOLSTEPS_TENANT) names the page's tenant, as for every command.
  const tenant = options.tenant === undefined ? cliTenant() : parseTenantId(options.tenant);
  const keepAlive = options.keepAliveLoop
    ? servingKeepAlive(options.keepAliveLoop.flags, options.keepAliveLoop.json)
    : undefined;
  let sandbox: Sandbox | undefined;
  if (options.sandbox && options.sandboxUrl) {
    throw new InputError(
      'Give --sandbox (start one here) or --sandbox-url (use one started apart), not both.',
      [{ path: 'sandbox-url', message: 'not with --sandbox' }],
    );
  }
  if (options.sandbox) {
    const { startSandbox } = await loadSandbox();
    sandbox = await startSandbox({ port: 0 });
    // Its request log would keep every credential the page's requests carried.
    sandbox.server.requestLogLimit = 0;
  }
  const target = sandbox ?? (options.sandboxUrl ? sandboxAt(options.sandboxUrl) : undefined);
  const connect = target
    ? sandboxConnectSettings(target)
    : realConnectSettings(await cliRegistry(), options.oauthClient);
  const { running, tokens } = await launchBuilderServer({
    host: options.host,
    port: options.port,
    allowedOrigins: options.allowOrigin ?? [],
    publicUrl: options.publicUrl,
    staticRoot: options.page ? pageFolder() : undefined,
    connect,
  });
  const token = tokens.mint(tenant, { ttlMs: options.ttlMs });
  const minutes = Math.round(options.ttlMs / 60_000);
  if (target) process.stderr.write(await sandboxNotice(target.url));
  if (options.page) {
    if (!existsSync(path.join(pageFolder(), 'index.html'))) {
      process.stderr.write(`No page in ${pageFolder()} yet: the API serves, the page answers 404.\n`);
    }
    // The token rides in the fragment: browsers never send it to a server, so no log holds it.
    process.stdout.write(
      `Open ${running.url}/#token=${token}\n  (the token works for ${minutes} min; nothing was opened)\n`,
    );
  } else {
    process.stdout.write(
      `toolsteps builder API at ${running.url}/v1 (OpenAPI: ${running.url}/v1/openapi.json)\n`,
    );
    process.stderr.write(`A builder token for tenant "${tenant}", for ${minutes} min: ${token}\n`);
  }
  const sink = keepAlive?.settings ? await healthChangeSink() : undefined;
  const keeping = sink ? await keepAlive?.start((change) => sink.tell(change)) : undefined;
  await untilStopped();
  await keeping?.stop();
  await sink?.close();
  await running.close();
  await sandbox?.close();
}

import type { ConnectSetting } from '../src/builder/builder-options.js';
import type { RunningBuilderServer } from '../src/builder/builder-server.js';
import { eitherTokenVerifier, scopedTokenVerifier } from '../src/builder/scoped-token-verifier.js';
import { SessionTokens } from '../src/builder/session-tokens.js';
import type { TokenVerifier } from '../src/builder/token-verifier.js';
import type { TenantId } from '../src/model/tenant-id.js';
import type { TenantStores } from '../src/store/tenant-stores.js';
import { TokenKeys } from '../src/tenants/token-keys.js';
import { cliContext } from './cli-context.js';
import { planFromEnv } from './trigger-context.js';

export interface BuilderLaunch {
  host: string;
  port: number;
  allowedOrigins: string[];
  publicUrl?: string | undefined;
  staticRoot?: string | undefined;
  connect: Record<string, ConnectSetting>;
}

/**
 * This process's session tokens, and with TOOLSTEPS_TOKEN_KEY(S) set the
 * signed scoped tokens (scope `builder`) an embedder's backend mints, checked
 * against the store's revocations.
 */
function builderTokens(sessions: SessionTokens, tenants: TenantStores): TokenVerifier {
  if (!TokenKeys.configured(process.env)) return sessions;
  const keys = TokenKeys.fromEnv(process.env);
  return eitherTokenVerifier(sessions, scopedTokenVerifier({ keys, revocations: tenants.revocations }));
}

/**
 * The builder server over the CLI's stores and registry, with this
 * process's session tokens: what `serve` and `ui` share. Every tenant's
 * records are reachable through the stores' tenant views, each request in
 * its token's tenant only; a runtime per tenant shares the CLI's
 * coordinator (Redis when configured), keeping to its tenant's keys.
 */
export async function launchBuilderServer(
  launch: BuilderLaunch,
): Promise<{ running: RunningBuilderServer; tokens: SessionTokens }> {
  const [{ registry, stores }, { startBuilderServer }, { Runtime }] = await Promise.all([
    cliContext({ serving: true }),
    import('../src/builder/builder-server.js'),
    import('../src/runtime/runtime.js'),
  ]);
  const tokens = new SessionTokens();
  const coordination = stores.coordinator ? { coordination: stores.coordinator } : {};
  const running = await startBuilderServer({
    registry,
    tenants: stores.tenants,
    tokens: builderTokens(tokens, stores.tenants),
    dedupe: stores.dedupe,
    // Each tenant's hooks use its own dedupe records, as under `toolsteps listen`.
    intakeTenants: (tenant: TenantId) => stores.intakeTenant(tenant),
    entitlements: { plan: planFromEnv() },
    runtimeFor: (tenant: TenantId, scoped) =>
      new Runtime({
        tenant,
        store: scoped.connections,
        transport: 'undici',
        ...coordination,
        audit: scoped.audit,
        limits: scoped.limits,
        caller: 'builder',
      }),
    ...launch,
  });
  return { running, tokens };
}

/** Until SIGINT or SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

import { TRIGGERS_PLAN } from '../src/triggers/entitlements.js';
import { type CliRuntimeOptions, cliContext } from './cli-context.js';

/** The organisation's plan as the CLI knows it: `TOOLSTEPS_PLAN`, Enterprise when unset. */
export function planFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLSTEPS_PLAN?.trim() || TRIGGERS_PLAN;
}

/**
 * What trigger commands work with: the registry, the stores (files under
 * $TOOLSTEPS_HOME, or Redis), and the subscription manager. Loaded on first use, so
 * commands that touch no trigger never load the trigger machinery.
 */
export async function triggerContext(options: CliRuntimeOptions = {}) {
  const [{ registry, runtime, stores }, { TriggerSubscriptions }] = await Promise.all([
    cliContext(options),
    import('../src/triggers/trigger-subscriptions.js'),
  ]);
  const manager = new TriggerSubscriptions({
    triggers: registry,
    runtime,
    subscriptions: stores.subscriptions,
    entitlements: { plan: planFromEnv() },
  });
  return { registry, runtime, subscriptions: stores.subscriptions, manager, dedupe: stores.dedupe, stores };
}

import { TRIGGERS_PLAN } from '../triggers/entitlements.js';
import { cliRegistry } from './cli-context.js';

/** The organisation's plan as the CLI knows it: `TOOLSTEPS_PLAN`, Enterprise when unset. */
export function planFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLSTEPS_PLAN?.trim() || TRIGGERS_PLAN;
}

/**
 * What trigger commands work with: the registry, the file stores under
 * $TOOLSTEPS_HOME, and the subscription manager. Loaded on first use, so
 * commands that touch no trigger never load the trigger machinery.
 */
export async function triggerContext() {
  const [registry, fileStore, { Runtime }, subscriptionStore, dedupeStore, { TriggerSubscriptions }] =
    await Promise.all([
      cliRegistry(),
      import('../connection/file-store.js'),
      import('../runtime.js'),
      import('../triggers/file-subscription-store.js'),
      import('../triggers/file-dedupe-store.js'),
      import('../triggers/trigger-subscriptions.js'),
    ]);
  const home = fileStore.defaultToolstepsHome();
  const store = new fileStore.FileConnectionStore(home);
  const runtime = new Runtime({ store });
  const subscriptions = new subscriptionStore.FileSubscriptionStore(home);
  const manager = new TriggerSubscriptions({
    triggers: registry,
    runtime,
    subscriptions,
    entitlements: { plan: planFromEnv() },
  });
  return { registry, runtime, subscriptions, manager, dedupe: new dedupeStore.FileDedupeStore(home) };
}

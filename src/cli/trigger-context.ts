import { createRegistry } from '../../steps/index.js';
import { defaultToolstepsHome, FileConnectionStore } from '../connection/file-store.js';
import { Runtime } from '../runtime.js';
import { TRIGGERS_PLAN } from '../triggers/entitlements.js';
import { FileDedupeStore } from '../triggers/file-dedupe-store.js';
import { FileSubscriptionStore } from '../triggers/file-subscription-store.js';
import { TriggerSubscriptions } from '../triggers/trigger-subscriptions.js';

/** The organisation's plan as the CLI knows it: `TOOLSTEPS_PLAN`, Enterprise when unset. */
export function planFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLSTEPS_PLAN?.trim() || TRIGGERS_PLAN;
}

/** What trigger commands work with: the registry, the file stores under $TOOLSTEPS_HOME, and the subscription manager. */
export function triggerContext() {
  const home = defaultToolstepsHome();
  const store = new FileConnectionStore(home);
  const registry = createRegistry();
  const runtime = new Runtime({ store });
  const subscriptions = new FileSubscriptionStore(home);
  const manager = new TriggerSubscriptions({
    triggers: registry,
    runtime,
    subscriptions,
    entitlements: { plan: planFromEnv() },
  });
  return { registry, runtime, subscriptions, manager, dedupe: new FileDedupeStore(home) };
}

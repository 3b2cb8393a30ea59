import type { Command } from 'commander';
import { isToolstepsError } from '../../src/errors/index.js';
import { toPublicSubscription } from '../../src/model/subscription.js';
import { EXIT_FAILURE, printJson, printValue } from '../output.js';
import { triggerContext } from '../trigger-context.js';
import type { OrphanScopeOptions } from './orphan-webhook-actions.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** A provider read that failed is reported, not thrown: the local half of the status is still worth showing. */
function failedRead(error: unknown) {
  if (!isToolstepsError(error)) throw error;
  return { error: { code: error.code, message: error.message } };
}

/**
 * `triggers status <id>`: the stored subscription, the provider's view of
 * its webhook (read now), and the last delivery. Exit 1 when the provider's
 * webhook is gone or could not be read. Without an id: the overview, with
 * the orphans at the providers (orphan-webhook-actions.ts).
 */
export async function showStatus(
  id: string | undefined,
  options: OrphanScopeOptions,
  command: Command,
): Promise<void> {
  if (id === undefined) {
    const { showOverview } = await import('./orphan-webhook-actions.js');
    return showOverview(options, command);
  }
  const { manager, registry, runtime } = await triggerContext();
  const subscription = await manager.require(id);
  const trigger = registry.requireTrigger(subscription.trigger);
  const { readWebhookStatus } = await import('../../src/triggers/subscription-webhook.js');
  const provider = await readWebhookStatus(runtime, trigger, subscription).catch(failedRead);
  const shown = toPublicSubscription(subscription);
  const status = {
    ...shown,
    createdAt: iso(shown.createdAt),
    lastDeliveryAt: iso(shown.lastDeliveryAt),
    webhook: provider,
  };
  const broken = 'error' in provider || ('exists' in provider && !provider.exists);
  if (broken) process.exitCode = EXIT_FAILURE;
  if (command.optsWithGlobals().json) {
    printJson(status);
    return;
  }
  const out = process.stdout;
  out.write(`${status.id}  ${status.trigger}  ${status.active ? 'active' : 'inactive'}  ${status.state}\n`);
  out.write(`  url: ${status.url}\n  connection: ${status.connection}\n`);
  out.write(`  signing secret: ${status.hasSecret ? 'stored' : 'MISSING (every delivery is refused)'}\n`);
  out.write(`  last delivery: ${status.lastDeliveryAt ?? 'never'}\n`);
  if ('unavailable' in provider) out.write(`  at the provider: not read (${provider.unavailable})\n`);
  else if ('error' in provider)
    out.write(`  at the provider: COULD NOT READ [${provider.error.code}] ${provider.error.message}\n`);
  else if (!provider.exists)
    out.write(
      '  at the provider: GONE (deleted there; nothing will be delivered; remove and create again)\n',
    );
  else {
    out.write(`  at the provider: exists${provider.state ? `, ${provider.state}` : ''}\n`);
    for (const [key, value] of Object.entries(provider.details)) out.write(`    ${key}: ${value}\n`);
  }
}

/**
 * `triggers test <id>`: the trigger's example event with a fresh id, mapped
 * as the intake would map it, and delivered by the provider where it offers
 * a test delivery. Exit 1 when a delivery was asked for and did not arrive.
 */
export async function runTest(id: string, _options: unknown, command: Command): Promise<void> {
  const { manager, registry, runtime } = await triggerContext();
  const subscription = await manager.require(id);
  const trigger = registry.requireTrigger(subscription.trigger);
  const { testSubscription } = await import('../../src/triggers/subscription-webhook.js');
  const test = await testSubscription(runtime, trigger, subscription, runtime.clock);
  if (test.delivery && !test.delivery.delivered) process.exitCode = EXIT_FAILURE;
  const report = { subscription: id, trigger: trigger.id, event_id: test.eventId, ...test };
  if (command.optsWithGlobals().json) {
    const { eventId: _eventId, noDelivery, ...rest } = report;
    printJson({ ...rest, no_delivery: noDelivery });
    return;
  }
  const out = process.stdout;
  if (test.delivery) {
    const { delivered, status, message } = test.delivery;
    out.write(
      `Test delivery of ${test.eventId} to ${toPublicSubscription(subscription).url}: ${delivered ? 'delivered' : 'FAILED'}${status ? ` (HTTP ${status})` : ''}: ${message}\n`,
    );
  } else out.write(`No test delivery: ${test.noDelivery}\nWhat such an event maps to:\n`);
  if (test.skipped) out.write(`This subscription would skip such an event: ${test.skipped}\n`);
  printValue('variables:', test.variables);
}

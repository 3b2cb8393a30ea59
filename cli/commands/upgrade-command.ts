import type { Command } from 'commander';
import type { SubscriptionUpgrade } from '../../src/triggers/subscription-upgrades.js';
import { printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';

const SAID: Record<SubscriptionUpgrade['action'], (upgrade: SubscriptionUpgrade) => string> = {
  pin: (upgrade) => `follows the latest major: pin to ${upgrade.to}`,
  current: () => 'on the current major',
  not_served: () => 'its major is no longer served and has no migration: make the subscription again',
  unknown_trigger: () => 'its trigger is not in this catalogue',
};

/**
 * `upgrade [--apply]`: what upgrading the tenant's subscriptions to the
 * catalogue's majors would do, and with --apply does it. A dry run by
 * default: a subscription's stored trigger reference is what keeps its
 * mapping valid, so nothing changes unless asked.
 */
async function upgradeSubscriptions(options: { apply?: boolean }, command: Command): Promise<void> {
  const { planSubscriptionUpgrades } = await import('../../src/triggers/subscription-upgrades.js');
  const { registry, subscriptions } = await triggerContext();
  const stored = await subscriptions.list();
  const plan = planSubscriptionUpgrades(stored, registry);
  if (options.apply) {
    for (const upgrade of plan) {
      const subscription = stored.find((item) => item.id === upgrade.subscription);
      if (upgrade.action === 'pin' && subscription && upgrade.to) {
        await subscriptions.put({ ...subscription, trigger: upgrade.to });
      }
    }
  }
  if (command.optsWithGlobals().json) {
    printJson({ applied: Boolean(options.apply), subscriptions: plan });
    return;
  }
  for (const upgrade of plan) {
    process.stdout.write(
      `${upgrade.subscription}  ${upgrade.trigger.padEnd(34)} ${SAID[upgrade.action](upgrade)}\n`,
    );
  }
  const pins = plan.filter((upgrade) => upgrade.action === 'pin').length;
  if (!options.apply && pins) process.stdout.write(`Dry run: ${pins} to pin. Run again with --apply.\n`);
  if (plan.some((upgrade) => upgrade.action === 'not_served')) process.exitCode = 1;
}

/** `upgrade`: the tenant's trigger subscriptions against the catalogue's majors (dry run unless --apply). */
export default function registerUpgradeCommand(program: Command): void {
  program
    .command('upgrade')
    .description(
      "Check the tenant's trigger subscriptions against the catalogue's majors; with --apply, pin those that follow the latest.",
    )
    .option('--apply', 'store the changes (a dry run without it)')
    .action(upgradeSubscriptions);
}

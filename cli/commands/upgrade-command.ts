import type { Command } from 'commander';
import type { SubscriptionUpgrade } from '../../src/triggers/subscription-upgrades.js';
import { printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';

const SAID: Record<SubscriptionUpgrade['action'], (upgrade: SubscriptionUpgrade) => string> = {
  pin: (upgrade) => `follows the latest major: pin to ${upgrade.to}`,
  current: () => 'on the current major',
  upgrade: (upgrade) =>
    upgrade.unmatched?.length
      ? `upgrade to ${upgrade.to}: ${upgrade.unmatched.length} variable(s) have no counterpart there`
      : `upgrade to ${upgrade.to} with its mapping rewritten`,
  not_served: () => 'its major is no longer served and has no migration: make the subscription again',
  unknown_trigger: () => 'its trigger is not in this catalogue',
};

/** The lines under an upgrade: each moved path, and each variable with no counterpart and why. */
function details(upgrade: SubscriptionUpgrade): string {
  const moved = (upgrade.moved ?? []).map((entry) => `    ${entry.variable}: ${entry.from} -> ${entry.to}\n`);
  const unmatched = (upgrade.unmatched ?? []).map(
    (entry) => `    ${entry.variable}: ${entry.path} has no counterpart (${entry.reason})\n`,
  );
  return [...moved, ...unmatched].join('');
}

/**
 * `upgrade [--apply] [--drop-unmatched]`: what upgrading the tenant's
 * subscriptions to the catalogue's majors would do, and with --apply does
 * it. A dry run by default: a subscription's stored trigger reference is
 * what keeps its mapping valid, so nothing changes unless asked; one whose
 * mapping has variables with no counterpart moves only with --drop-unmatched.
 */
async function upgradeCommand(
  options: { apply?: boolean; dropUnmatched?: boolean },
  command: Command,
): Promise<void> {
  const { upgradeSubscriptions } = await import('../../src/triggers/subscription-upgrades.js');
  const { registry, subscriptions } = await triggerContext();
  const plan = await upgradeSubscriptions(subscriptions, registry, options);
  if (command.optsWithGlobals().json) {
    printJson({ applied: Boolean(options.apply), subscriptions: plan });
  } else {
    for (const upgrade of plan) {
      const line = `${upgrade.subscription}  ${upgrade.trigger.padEnd(34)} ${SAID[upgrade.action](upgrade)}`;
      process.stdout.write(`${line}${upgrade.applied ? ' (done)' : ''}\n${details(upgrade)}`);
    }
    const waiting = plan.filter((upgrade) => upgrade.to && !upgrade.applied).length;
    if (waiting) {
      const how = options.apply
        ? 'Run again with --drop-unmatched to move them too.'
        : 'Run again with --apply.';
      process.stdout.write(`${options.apply ? 'Held back' : 'Dry run'}: ${waiting} to move. ${how}\n`);
    }
  }
  const heldBack = plan.some((upgrade) => upgrade.action === 'upgrade' && !upgrade.applied && options.apply);
  if (heldBack || plan.some((upgrade) => upgrade.action === 'not_served')) process.exitCode = 1;
}

/** `upgrade`: the tenant's trigger subscriptions against the catalogue's majors (dry run unless --apply). */
export default function registerUpgradeCommand(program: Command): void {
  program
    .command('upgrade')
    .description(
      "Check the tenant's trigger subscriptions against the catalogue's majors; with --apply, pin those that follow the latest and move those on an earlier major, their mappings rewritten.",
    )
    .option('--apply', 'store the changes (a dry run without it)')
    .option(
      '--drop-unmatched',
      'also move subscriptions whose mapping has variables with no counterpart, without them',
    )
    .action(upgradeCommand);
}

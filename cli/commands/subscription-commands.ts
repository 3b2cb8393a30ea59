import type { Command } from 'commander';
import { printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';

async function listSubscriptions(_options: unknown, command: Command): Promise<void> {
  const { toPublicSubscription } = await import('../../src/model/subscription.js');
  const subscriptions = (await (await triggerContext()).subscriptions.list()).map(toPublicSubscription);
  if (command.optsWithGlobals().json) {
    printJson(subscriptions);
    return;
  }
  if (!subscriptions.length)
    process.stdout.write('No subscriptions. Make one with: toolsteps triggers create.\n');
  for (const item of subscriptions) {
    process.stdout.write(
      `${item.id}  ${item.trigger.padEnd(34)} ${item.active ? 'active  ' : 'inactive'}  ${item.connection}  ${item.url}${item.state === 'ready' ? '' : `  [${item.state}: finish with triggers ${item.state === 'provisioning' ? 'activate (or remove)' : 'remove'}]`}\n`,
    );
  }
}

/** `subscriptions`: every subscription in $TOOLSTEPS_HOME, never with its secret. */
export default function registerSubscriptionCommands(program: Command): void {
  program.command('subscriptions').description('List trigger subscriptions.').action(listSubscriptions);
}

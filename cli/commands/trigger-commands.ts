import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { collect } from '../option-values.js';
import { registerTriggerCatalogCommands } from './trigger-catalog-commands.js';

const actions = () => import('./trigger-actions.js');
const checks = () => import('./subscription-checks.js');
const orphans = () => import('./orphan-webhook-actions.js');

/** The commands that act on one stored subscription: name, help line, action. */
const subscriptionCommands: [string, string, (...args: unknown[]) => Promise<void>][] = [
  [
    'activate',
    'Let deliveries start events again; one left provisioning is finished first (its webhook found by URL and adopted).',
    lazyAction(actions, 'activate'),
  ],
  [
    'deactivate',
    'Keep the webhook but start nothing: deliveries are answered and skipped.',
    lazyAction(actions, 'deactivate'),
  ],
  [
    'remove',
    'Delete the webhook (and rule) at the provider, then the subscription; says what was removed there.',
    lazyAction(actions, 'removeSubscription'),
  ],
  [
    'test',
    "Ask the provider for a test delivery of the trigger's example event, and show the variables it maps to.",
    lazyAction(checks, 'runTest'),
  ],
];

function registerCreateCommand(triggers: Command): void {
  triggers
    .command('create')
    .description(
      'Subscribe to a trigger: provisions the webhook at the provider and stores its signing secret.',
    )
    .argument('<trigger-id>')
    .requiredOption('--connection <id>', 'the connection to the provider account')
    .requiredOption(
      '--target <public-base-url>',
      'where the provider reaches this machine; deliveries go to <target>/hooks/<id>',
    )
    .option('--map <name=jsonpath>', 'map a payload value to a variable (repeatable)', collect)
    .option('--constraint <key=a,b>', 'limit the subscription, e.g. projects=prj_1 (repeatable)', collect)
    .option('--setup <json>', "the trigger's setup options as a JSON object")
    .option('--inactive', 'create it inactive: deliveries start nothing until activated')
    .option('--manual', 'create nothing at the provider: print the URL to paste in its settings')
    .option('--secret-env <name>', 'manual mode: read the signing secret from this environment variable')
    .option('--secret-stdin', 'manual mode: read the signing secret from standard input')
    .action(lazyAction(actions, 'createSubscription'));
}

/** `--target` (repeatable) and `--connection`: where orphans are looked for. */
function withOrphanScope(command: Command): Command {
  return command
    .option(
      '--target <public-base-url>',
      'a base URL of ours: webhooks delivering under <target>/hooks/ point at us (repeatable; default: the targets of the stored subscriptions)',
      collect,
    )
    .option('--connection <id>', "look only at this connection's account");
}

function registerOrphanCommands(triggers: Command): void {
  withOrphanScope(
    triggers
      .command('status')
      .description(
        "With an id: the subscription, its webhook's state read from the provider now, and the last delivery. Without: every subscription, and the webhooks at the providers that point at us but belong to none (orphans).",
      )
      .argument('[subscription-id]'),
  ).action(lazyAction(checks, 'showStatus'));
  withOrphanScope(
    triggers
      .command('prune')
      .description(
        'Delete the orphans: webhooks at the providers that point at us but belong to no subscription.',
      )
      .option('--dry-run', 'list what would be deleted, delete nothing'),
  ).action(lazyAction(orphans, 'pruneOrphans'));
}

/** `triggers ...`: the catalogue, subscribing, and the life of a subscription. */
export default function registerTriggerCommands(program: Command): void {
  const triggers = program
    .command('triggers')
    .description('Events that start agents: list, subscribe, manage.');
  registerTriggerCatalogCommands(triggers);
  registerCreateCommand(triggers);
  for (const [name, description, action] of subscriptionCommands) {
    triggers.command(name).description(description).argument('<subscription-id>').action(action);
  }
  registerOrphanCommands(triggers);
}

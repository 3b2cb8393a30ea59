import type { Command } from 'commander';
import { InputError } from '../../errors.js';
import { type Subscription, subscriptionUrl } from '../../triggers/subscription.js';
import { collect, connectionIdOption, constraintsOption } from '../option-values.js';
import { printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';
import { readStdin, secretFromEnv } from './secret-sources.js';
import { registerTriggerCatalogCommands } from './trigger-catalog-commands.js';

interface CreateOptions {
  connection: string;
  target: string;
  map?: string[];
  constraint?: string[];
  setup?: string;
  inactive?: boolean;
  manual?: boolean;
  secretEnv?: string;
  secretStdin?: boolean;
}

/** `--map name=<jsonpath>` pairs as a mapping; the paths are checked when the subscription is made. */
function mappingOption(pairs: readonly string[] = []): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new InputError(`--map expects name=<jsonpath>, got "${pair}".`, [
        { path: 'map', message: 'name=<jsonpath>' },
      ]);
    mapping[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return mapping;
}

function setupOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below, with the flag's shape.
  }
  throw new InputError('--setup expects a JSON object, e.g. \'{"to_statuses":["solved"]}\'.', [
    { path: 'setup', message: 'a JSON object' },
  ]);
}

/** What `triggers create` prints: never the secret. */
export function createdView(subscription: Subscription) {
  const { id, trigger, connection, active } = subscription;
  return { id, trigger, connection, url: subscriptionUrl(subscription), active };
}

async function createSubscription(
  triggerId: string,
  options: CreateOptions,
  command: Command,
): Promise<void> {
  const json = Boolean(command.optsWithGlobals().json);
  const { manager } = await triggerContext();
  const request = {
    trigger: triggerId,
    connection: connectionIdOption(options.connection),
    target: options.target,
    setup: setupOption(options.setup),
    mapping: mappingOption(options.map),
    constraints: constraintsOption(options.constraint),
    active: !options.inactive,
  };
  if (!options.manual) {
    const subscription = await manager.create(request);
    if (json) printJson(createdView(subscription));
    else
      process.stdout.write(
        `Subscribed ${subscription.id} to ${triggerId}; the provider delivers to ${subscriptionUrl(subscription)}${subscription.active ? '' : ' (inactive)'}.\n`,
      );
    return;
  }
  let subscription = await manager.create({
    ...request,
    manual: { secret: secretFromEnv(options.secretEnv, 'secret') },
  });
  if (!json) {
    process.stdout.write(
      `Paste this URL in the provider's webhook settings:\n  ${subscriptionUrl(subscription)}\n`,
    );
  }
  if (!subscription.secret && options.secretStdin) {
    if (!json)
      process.stderr.write('Then paste the signing secret the provider shows, and end with Ctrl-D:\n');
    subscription = await manager.setSecret(subscription.id, await readStdin());
  }
  if (json) printJson({ ...createdView(subscription), hasSecret: Boolean(subscription.secret) });
  else if (!subscription.secret) {
    process.stdout.write(
      `No signing secret yet: every delivery is refused until one is set (--secret-env or --secret-stdin).\n`,
    );
  }
}

async function setActive(id: string, active: boolean, command: Command): Promise<void> {
  const subscription = await (await triggerContext()).manager.setActive(id, active);
  if (command.optsWithGlobals().json) printJson(createdView(subscription));
  else process.stdout.write(`${subscription.id} is ${active ? 'active' : 'inactive'}.\n`);
}

async function removeSubscription(id: string, _options: unknown, command: Command): Promise<void> {
  await (await triggerContext()).manager.remove(id);
  if (command.optsWithGlobals().json) printJson({ id, removed: true });
  else process.stdout.write(`Removed ${id} and its webhook at the provider.\n`);
}

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
    .action(createSubscription);
}

/** `triggers ...`: the catalogue, subscribing, and the life of a subscription. */
export function registerTriggerCommands(program: Command): void {
  const triggers = program
    .command('triggers')
    .description('Events that start agents: list, subscribe, manage.');
  registerTriggerCatalogCommands(triggers);
  registerCreateCommand(triggers);
  triggers
    .command('activate')
    .description('Let deliveries start events again.')
    .argument('<subscription-id>')
    .action((id: string, _options: unknown, command: Command) => setActive(id, true, command));
  triggers
    .command('deactivate')
    .description('Keep the webhook but start nothing: deliveries are answered and skipped.')
    .argument('<subscription-id>')
    .action((id: string, _options: unknown, command: Command) => setActive(id, false, command));
  triggers
    .command('remove')
    .description('Delete the webhook (and rule) at the provider, then the subscription.')
    .argument('<subscription-id>')
    .action(removeSubscription);
  triggers
    .command('status')
    .description(
      "Show a subscription, its webhook's state read from the provider now, and the last delivery.",
    )
    .argument('<subscription-id>')
    .action(async (id: string, options: unknown, command: Command) =>
      (await import('./subscription-checks.js')).showStatus(id, options, command),
    );
  triggers
    .command('test')
    .description(
      "Ask the provider for a test delivery of the trigger's example event, and show the variables it maps to.",
    )
    .argument('<subscription-id>')
    .action(async (id: string, options: unknown, command: Command) =>
      (await import('./subscription-checks.js')).runTest(id, options, command),
    );
}

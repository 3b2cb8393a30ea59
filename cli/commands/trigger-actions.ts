import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { type Subscription, subscriptionUrl } from '../../src/model/subscription.js';
import type { SubscriptionRemoval } from '../../src/triggers/remove-at-provider.js';
import { connectionIdOption, constraintsOption } from '../option-values.js';
import { printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';
import { readStdin, secretFromEnv } from './secret-sources.js';

export interface CreateOptions {
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
export function mappingOption(pairs: readonly string[] = []): Record<string, string> {
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

export function setupOption(text: string | undefined): Record<string, unknown> {
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

export async function createSubscription(
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

export async function setActive(id: string, active: boolean, command: Command): Promise<void> {
  const subscription = await (await triggerContext()).manager.setActive(id, active);
  if (command.optsWithGlobals().json) printJson({ ...createdView(subscription), state: subscription.state });
  else process.stdout.write(`${subscription.id} is ${active ? 'active' : 'inactive'}.\n`);
}

/** What `triggers remove` says it did at the provider, in words. */
function removalWords(removal: SubscriptionRemoval): string {
  const done = removal.items.map(
    (item) => `${item.kind} ${item.id} ${item.outcome === 'removed' ? 'removed' : 'already gone'}`,
  );
  const list = done.length ? ` (${done.join(', ')})` : '';
  switch (removal.provider) {
    case 'removed':
      return `removed there${list}`;
    case 'already_gone':
      return `already gone there, deleted in its settings or by an earlier remove${list}`;
    case 'never_provisioned':
      return removal.manual
        ? 'nothing was provisioned there (made by hand: delete the webhook in its settings)'
        : 'nothing was provisioned there';
    default:
      return 'UNKNOWN: a create may have taken effect and this trigger cannot look for it; check the provider settings for a webhook to its URL';
  }
}

export async function removeSubscription(id: string, _options: unknown, command: Command): Promise<void> {
  const removal = await (await triggerContext()).manager.remove(id);
  if (command.optsWithGlobals().json) printJson({ ...removal, removed: true });
  else process.stdout.write(`Removed ${id}; at the provider: ${removalWords(removal)}.\n`);
}

export const activate = (id: string, _options: unknown, command: Command) => setActive(id, true, command);
export const deactivate = (id: string, _options: unknown, command: Command) => setActive(id, false, command);

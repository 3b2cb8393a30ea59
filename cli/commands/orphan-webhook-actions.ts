import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { type Subscription, toPublicSubscription } from '../../src/model/subscription.js';
import type { HookedWebhook, OrphanScanOptions } from '../../src/triggers/orphan-webhooks.js';
import { connectionIdOption } from '../option-values.js';
import { EXIT_FAILURE, printJson } from '../output.js';
import { triggerContext } from '../trigger-context.js';

export interface OrphanScopeOptions {
  target?: string[];
  connection?: string;
  dryRun?: boolean;
}

/** The base URLs that are ours: the ones given, or else every stored subscription's target. */
function basesOf(options: OrphanScopeOptions, subscriptions: readonly Subscription[]): string[] {
  const given = options.target ?? [];
  for (const target of given) {
    if (!URL.canParse(target)) {
      throw new InputError(`--target expects a URL, got "${target}".`, [
        { path: 'target', message: 'a URL' },
      ]);
    }
  }
  return given.length ? given : [...new Set(subscriptions.map((subscription) => subscription.target))];
}

async function scanScope(options: OrphanScopeOptions) {
  const context = await triggerContext();
  const subscriptions = await context.subscriptions.list();
  const scope: OrphanScanOptions = {
    runtime: context.runtime,
    triggers: context.registry,
    subscriptions,
    bases: basesOf(options, subscriptions),
    connection: options.connection === undefined ? undefined : connectionIdOption(options.connection),
  };
  return { subscriptions, scope };
}

const NO_BASE =
  'No base URL to look under: no subscription is stored. Give the one the provider reaches you at with --target <public-base-url>.';

function webhookLine(webhook: HookedWebhook): string {
  const name = webhook.name ? `  "${webhook.name}"` : '';
  return `  ${webhook.connection}  ${webhook.id}  ${webhook.url}${name}\n`;
}

/**
 * `triggers status` without an id: every subscription in one line, then the
 * webhooks at the providers that point at us (under `<target>/hooks/`) but
 * no subscription records: orphans (`triggers prune` deletes them), and
 * those a subscription left provisioning will adopt. Exit 1 when there is an
 * orphan or an account could not be read.
 */
export async function showOverview(options: OrphanScopeOptions, command: Command): Promise<void> {
  const { subscriptions, scope } = await scanScope(options);
  const { findOrphanWebhooks } = await import('../../src/triggers/orphan-webhooks.js');
  const scan = scope.bases.length ? await findOrphanWebhooks(scope) : undefined;
  if (scan && (scan.orphans.length || scan.unread.length)) process.exitCode = EXIT_FAILURE;
  if (command.optsWithGlobals().json) {
    printJson({
      subscriptions: subscriptions.map(toPublicSubscription),
      bases: scope.bases,
      ...(scan ?? { orphans: [], unadopted: [], unread: [] }),
    });
    return;
  }
  const out = process.stdout;
  for (const item of subscriptions) {
    out.write(`${item.id}  ${item.trigger}  ${item.active ? 'active' : 'inactive'}  ${item.state}\n`);
  }
  if (!scan) {
    out.write(`${NO_BASE}\n`);
    return;
  }
  out.write(`Webhooks at the providers pointing under ${scope.bases.join(', ')}:\n`);
  if (!scan.orphans.length) out.write('  no orphans\n');
  else {
    out.write(`  ORPHANS (no subscription records them; delete with: toolsteps triggers prune):\n`);
    for (const orphan of scan.orphans) out.write(`  ${webhookLine(orphan)}`);
  }
  for (const webhook of scan.unadopted) {
    out.write(
      `  made for ${webhook.names}, still provisioning (finish with triggers activate, or remove):\n  ${webhookLine(webhook)}`,
    );
  }
  for (const { connection, error } of scan.unread)
    out.write(`  ${connection}: COULD NOT READ [${error.code}] ${error.message}\n`);
}

/**
 * `triggers prune`: deletes each orphan and says what became of it. Exit 1
 * when one could not be deleted or an account could not be read.
 */
export async function pruneOrphans(options: OrphanScopeOptions, command: Command): Promise<void> {
  const { scope } = await scanScope(options);
  if (!scope.bases.length) throw new InputError(NO_BASE, [{ path: 'target', message: 'required' }]);
  const { findOrphanWebhooks, pruneOrphanWebhooks } = await import('../../src/triggers/orphan-webhooks.js');
  const result = options.dryRun
    ? await findOrphanWebhooks(scope).then((scan) => ({
        pruned: scan.orphans.map((orphan) => ({ ...orphan, outcome: 'would_remove' as const })),
        unread: scan.unread,
      }))
    : await pruneOrphanWebhooks(scope);
  if (result.unread.length || result.pruned.some((item) => item.outcome === 'failed'))
    process.exitCode = EXIT_FAILURE;
  if (command.optsWithGlobals().json) {
    printJson(result);
    return;
  }
  const out = process.stdout;
  if (!result.pruned.length) out.write('No orphan webhooks.\n');
  const words = {
    removed: 'removed',
    already_gone: 'already gone',
    failed: 'NOT REMOVED',
    would_remove: 'would remove',
  };
  for (const item of result.pruned) {
    const why = 'error' in item && item.error ? `: [${item.error.code}] ${item.error.message}` : '';
    out.write(`${words[item.outcome]}${why}\n${webhookLine(item)}`);
  }
  for (const { connection, error } of result.unread)
    out.write(`${connection}: COULD NOT READ [${error.code}] ${error.message}\n`);
}

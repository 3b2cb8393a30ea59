import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { collect } from '../option-values.js';

/**
 * `tokens create` and `tokens revoke <id>`: the scoped tokens that let a
 * network client (an MCP client over HTTP, a builder page's backend) act
 * for one tenant, as JWTs. The signing key comes from TOOLSTEPS_TOKEN_KEYS
 * (its first) or TOOLSTEPS_TOKEN_KEY only, never an option.
 */
export default function registerTokenCommands(program: Command): void {
  const tokens = program
    .command('tokens')
    .description(
      'Scoped tokens for the MCP HTTP server and the builder API: one tenant, its scopes; JWTs signed with TOOLSTEPS_TOKEN_KEY (or the first of TOOLSTEPS_TOKEN_KEYS).',
    );
  tokens
    .command('create')
    .description(
      'Print a new token for the tenant of --tenant (default "default"); only the token goes to stdout.',
    )
    .option('--scope <scope>', 'what it may serve: mcp or builder (repeatable, or comma-separated)', collect)
    .option('--integrations <ids>', 'only these integrations, comma-separated')
    .option('--read-only', 'only steps that read: nothing that writes at a provider')
    .option('--ttl <duration>', 'how long it works: 90s, 30m, 1h, 7d (1 minute to 90 days)', '1h')
    .action(lazyAction(() => import('./token-actions.js'), 'createToken'));
  tokens
    .command('revoke <id>')
    .description(
      'Refuse the token of this id from now on, on every server sharing the store (its tenant is part of the id).',
    )
    .action(lazyAction(() => import('./token-actions.js'), 'revokeToken'));
}

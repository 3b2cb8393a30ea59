import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { collect } from '../option-values.js';

const actions = () => import('./connection-actions.js');

/** `connections add|list|remove|revoke-pending|test|rekey|keep-alive`. Secrets come from environment variables or stdin, never a flag value. */
export default function registerConnectionCommands(program: Command): void {
  const connections = program.command('connections').description('Manage stored connections.');
  registerAddConnection(connections);
  registerListConnections(connections);
  registerRemoveConnection(connections);
  connections
    .command('test')
    .description("Make the provider's cheapest authenticated read with a connection and say what works.")
    .argument('<id>')
    .action(async (id: string, options: unknown, command: Command) => {
      const { testConnection } = await import('./connection-test.js');
      await testConnection(id, options, command);
    });
  registerRekeyConnections(connections);
  connections
    .command('keep-alive')
    .description(
      'One keep-alive pass (for cron): renew refresh tokens that end within TOOLSTEPS_KEEP_ALIVE_WINDOW_DAYS (default 7), check the others, report health.',
    )
    .action(lazyAction(() => import('./keep-alive-action.js'), 'keepAliveOnce'));
}

function registerAddConnection(connections: Command): void {
  connections
    .command('add')
    .description('Store a connection whose credentials you already have.')
    .argument('<integration>', 'integration id, e.g. ticketing')
    .requiredOption('--id <id>', 'connection id, unique across integrations')
    .option('--label <label>', 'account label shown in pickers')
    .option('--subdomain <subdomain>', 'ticketing: account subdomain')
    .option('--team-id <id>', 'deployments: team id that scopes every call')
    .option('--region <region>', 'governance: au, eu or us')
    .option('--project-id <id>', 'governance: project id')
    .option('--client-id <id>', 'OAuth client id (needed to refresh tokens)')
    .option('--base-url <url>', 'replace the provider host (sandbox, proxy, gateway)')
    .option('--field <key=value>', 'another public connection field', collect)
    .option('--access-token-env <NAME>', 'read the access token from this environment variable')
    .option('--refresh-token-env <NAME>', 'read the refresh token from this environment variable')
    .option('--api-key-env <NAME>', 'read the API key from this environment variable')
    .option('--client-secret-env <NAME>', 'read the OAuth client secret from this environment variable')
    .option(
      '--secret-stdin',
      "read the connection's main secret (API key or access token) from standard input",
    )
    .option('--expires-in <seconds>', 'seconds until the access token expires')
    .option('--force', 'replace a stored connection with the same id')
    .action(lazyAction(actions, 'addConnection'));
}

function registerListConnections(connections: Command): void {
  connections
    .command('list')
    .description('List stored connections (never their secrets).')
    .action(lazyAction(actions, 'listConnections'));
}

function registerRekeyConnections(connections: Command): void {
  connections
    .command('rekey')
    .description(
      'Seal every connection and subscription secret in Redis with TOOLSTEPS_ENCRYPTION_KEY (the old key in TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS).',
    )
    .option(
      '--trust-unsealed',
      'also seal records stored before their public fields were sealed, as they stand: check their base URLs and fields first',
    )
    .action(lazyAction(actions, 'rekeyConnections'));
}

const revocationActions = () => import('./revocation-actions.js');

/** `remove` revokes the grant at the provider; `revoke-pending` retries the revocations that failed. */
function registerRemoveConnection(connections: Command): void {
  connections
    .command('remove')
    .description(
      'Delete a stored connection now and revoke its grant at the provider (a failed revocation is kept and retried; exits 1 while it may be alive).',
    )
    .argument('<id>')
    .action(lazyAction(revocationActions, 'removeConnection'));
  connections
    .command('revoke-pending')
    .description(
      'Retry the revocations of removed connections that failed (due ones, with backoff); exits 1 while any grant may still be alive.',
    )
    .option('--now', 'try every pending revocation now, whatever its backoff says')
    .option('--list', 'only list what waits, sending nothing')
    .action(lazyAction(revocationActions, 'revokePending'));
}

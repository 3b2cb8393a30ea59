import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('./connect-actions.js');

/** `connect <integration>`: the OAuth code flow with a loopback callback and PKCE. */
export default function registerConnectCommand(program: Command): void {
  program
    .command('connect')
    .description('Connect an OAuth account: sign in, allow access, and store the tokens.')
    .argument('<integration>', 'ticketing or deployments')
    .requiredOption('--id <id>', 'connection id')
    .option('--label <label>', 'account label')
    .option('--subdomain <subdomain>', 'ticketing: account subdomain')
    .option('--team-id <id>', 'deployments: team id')
    .option('--base-url <url>', 'replace the provider host (the sandbox prints its URL)')
    .option('--client-id <id>', 'OAuth client id registered with the provider', 'toolsteps-cli')
    .option(
      '--client-secret-env <NAME>',
      'environment variable holding the client secret (confidential clients)',
    )
    .option('--scopes <scopes>', 'space-separated scopes (default: the integration defaults)')
    .option(
      '--callback-port <n>',
      'port of the loopback callback, http://127.0.0.1:<n>/callback (0 = any free port); real providers need the exact redirect URL you registered',
      '0',
    )
    .option(
      '--refresh-token-days <days>',
      'ask for refresh tokens that live this long, where the provider lets you choose (ticketing: 7 to 90)',
    )
    .option('--open', 'open the sign-in page in a browser')
    .option('--timeout <seconds>', 'how long to wait for the sign-in to complete', '300')
    .option('--force', 'replace a stored connection with the same id')
    .action(lazyAction(actions, 'connect'));
}

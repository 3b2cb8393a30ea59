import type { Command } from 'commander';
import { collect, integerOption } from '../option-values.js';

interface UiOptions {
  port: string;
  tenant: string;
  sandbox: boolean;
  oauthClient?: string[];
  tokenTtl: string;
}

/**
 * `ui`: the reference builder page, the builder API it talks to and (unless
 * --no-sandbox) the sandbox, on the CLI's connection store. Opens nothing:
 * it prints a loopback URL whose fragment holds a short-lived token.
 */
export default function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('Serve the reference builder page on loopback, with the builder API and the sandbox.')
    .option('--port <n>', 'port to listen on (0: any free port)', '4020')
    .option('--no-sandbox', 'use real accounts instead of the sandbox')
    .option(
      '--oauth-client <integration=client-id>',
      'with --no-sandbox: an OAuth client to connect that integration with (repeatable); secret from TOOLSTEPS_OAUTH_SECRET_<INTEGRATION>',
      collect,
    )
    .option('--token-ttl <seconds>', 'life of the token in the printed URL', '3600')
    .action(async (options: UiOptions) => {
      const port = integerOption(options.port, '--port', { min: 0, max: 65535 });
      const ttlMs = 1000 * integerOption(options.tokenTtl, '--token-ttl', { min: 60, max: 86_400 });
      const { serveBuilder } = await import('./serve-builder.js');
      await serveBuilder({ ...options, host: '127.0.0.1', port, ttlMs, page: true });
    });
}

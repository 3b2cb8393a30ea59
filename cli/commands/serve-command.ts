import type { Command } from 'commander';
import { type KeepAliveFlags, keepAliveFlags } from '../keep-alive-flags.js';
import { collect, integerOption } from '../option-values.js';

interface ServeOptions extends KeepAliveFlags {
  port: string;
  host: string;
  allowOrigin?: string[];
  publicUrl?: string;
  oauthClient?: string[];
  sandbox?: boolean;
  sandboxUrl?: string;
  tokenTtl: string;
}

/**
 * `serve`: the builder API (`/v1`, its OpenAPI document at `/v1/openapi.json`)
 * and the tenants' webhook intakes, over the CLI's stores. Its module loads
 * only for this command.
 */
export default function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('Serve the builder API (HTTP JSON under /v1) for builder pages and their backends.')
    .option('--port <n>', 'port to listen on (0: any free port)', '4020')
    .option(
      '--host <address>',
      'address to listen on; beyond loopback it needs an https --public-url',
      '127.0.0.1',
    )
    .option(
      '--allow-origin <url>',
      'a browser origin allowed to call the API (repeatable); no other gets CORS',
      collect,
    )
    .option(
      '--public-url <url>',
      'the URL providers and browsers reach this server at (webhooks, the OAuth callback)',
    )
    .option(
      '--oauth-client <integration=client-id>',
      'an OAuth client to connect that integration with (repeatable); its secret is read from TOOLSTEPS_OAUTH_SECRET_<INTEGRATION>',
      collect,
    )
    .option(
      '--sandbox',
      'start the sandbox in this process: every sign-in and key goes to it; prints the keys its key forms take',
    )
    .option(
      '--sandbox-url <url>',
      'use a sandbox started apart (toolsteps sandbox) at this URL instead: sign-ins go to it, not to the real providers',
    )
    .option('--token-ttl <seconds>', 'life of the builder token printed at start', '3600');
  keepAliveFlags(command, true).action(async (options: ServeOptions, invoked: Command) => {
    const port = integerOption(options.port, '--port', { min: 0, max: 65535 });
    const ttlMs = 1000 * integerOption(options.tokenTtl, '--token-ttl', { min: 60, max: 86_400 });
    const { serveBuilder } = await import('./serve-builder.js');
    const json = Boolean(invoked.optsWithGlobals().json);
    await serveBuilder({ ...options, port, ttlMs, page: false, keepAliveLoop: { flags: options, json } });
  });
}

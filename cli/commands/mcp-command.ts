import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { packageVersion } from '../../src/files/package-root.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { cliContext } from '../cli-context.js';
import { collect, integerOption, numberOption } from '../option-values.js';
import { secretFromEnv } from './secret-sources.js';

interface McpOptions {
  http?: boolean;
  port: string;
  host: string;
  tokenEnv?: string;
  allowOrigin?: string[];
  integrations?: string;
  readOnly?: boolean;
  creditBudget?: string;
  connection?: string[];
  catalog?: boolean;
  flat?: boolean;
  watchInterval: string;
}

function listOption(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function modeOf(options: McpOptions): 'auto' | 'flat' | 'catalog' {
  if (options.catalog && options.flat) {
    throw new InputError('--catalog and --flat contradict each other: pick one.', [
      { path: 'catalog', message: 'conflicts with --flat' },
    ]);
  }
  return options.catalog ? 'catalog' : options.flat ? 'flat' : 'auto';
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/**
 * `mcp`: the steps as a Model Context Protocol server, over stdio (what MCP
 * clients launch) or Streamable HTTP. The server module and the MCP SDK it
 * needs load only here, so the rest of the CLI never needs the SDK.
 */
export default function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve the steps to AI agents as an MCP server (stdio by default, or Streamable HTTP).')
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio')
    .option('--port <n>', 'HTTP port (0: any free port)', '3333')
    .option('--host <address>', 'HTTP address; anything but loopback needs --token-env', '127.0.0.1')
    .option('--token-env <name>', 'environment variable holding the bearer token HTTP clients must send')
    .option('--allow-origin <origin>', 'a browser origin allowed besides loopback ones (repeatable)', collect)
    .option('--integrations <ids>', 'only these integrations, comma-separated')
    .option('--read-only', 'only steps that read')
    .option('--credit-budget <n>', 'refuse, before sending, a call that may cost more credits than this')
    .option('--connection <id>', 'pin this connection for its integration (repeatable)', collect)
    .option('--catalog', 'offer search_steps, describe_step and run_step instead of one tool per step')
    .option('--flat', 'one tool per step, even above 40 tools')
    .option('--watch-interval <ms>', 'how often to look for connection changes (0: never)', '2000')
    .action(async (options: McpOptions) => {
      // A server makes many calls: the dispatcher wire, not a one-shot fetch.
      const { registry, runtime } = await cliContext({ serving: true });
      const settings = {
        registry,
        runtime,
        mode: modeOf(options),
        version: packageVersion(),
        watchIntervalMs: integerOption(options.watchInterval, '--watch-interval', { min: 0, max: 3_600_000 }),
        ...definedOnly({
          integrations: listOption(options.integrations),
          readOnly: options.readOnly,
          connections: options.connection,
          creditBudget:
            options.creditBudget === undefined
              ? undefined
              : numberOption(options.creditBudget, '--credit-budget'),
        }),
      };
      const { serveMcpHttp, serveMcpStdio } = await import('../../src/agents/mcp/serve-mcp.js');
      if (!options.http) {
        const running = await serveMcpStdio(settings);
        await Promise.race([running.closed, untilSignal()]);
        await running.close();
        return;
      }
      const running = await serveMcpHttp({
        ...settings,
        host: options.host,
        port: integerOption(options.port, '--port', { min: 0, max: 65535 }),
        ...definedOnly({
          token: secretFromEnv(options.tokenEnv, 'token-env'),
          allowedOrigins: options.allowOrigin,
        }),
      });
      process.stderr.write(`toolsteps MCP server at ${running.url}\n`);
      await untilSignal();
      await running.close();
    });
}

import path from 'node:path';
import type { Command } from 'commander';
import { packageVersion } from '../../src/disk/package-root.js';
import { defaultToolstepsHome } from '../../src/disk/toolsteps-home.js';
import { InputError } from '../../src/errors/input-error.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { cliContext } from '../cli-context.js';
import { collect, integerOption, numberOption } from '../option-values.js';
import { secretFromEnv } from './secret-sources.js';

interface McpOptions {
  http?: boolean;
  port: string;
  host: string;
  tokenEnv?: string;
  tokenFile?: string;
  /** False with --no-token. */
  token: boolean;
  maxSessions: string;
  sessionIdle: string;
  allowOrigin?: string[];
  integrations?: string;
  step?: string[];
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

/** Which steps (at which majors), integrations and connections the agent is offered. */
function toolFilterOf(options: McpOptions) {
  return definedOnly({
    integrations: listOption(options.integrations),
    steps: options.step,
    readOnly: options.readOnly,
    connections: options.connection,
  });
}

function modeOf(options: McpOptions): 'auto' | 'flat' | 'catalog' {
  if (options.catalog && options.flat) {
    throw new InputError('--catalog and --flat contradict each other: pick one.', [
      { path: 'catalog', message: 'conflicts with --flat' },
    ]);
  }
  return options.catalog ? 'catalog' : options.flat ? 'flat' : 'auto';
}

/**
 * The bearer token HTTP clients must send: from --token-env, from
 * --token-file, or, on loopback with neither, from $TOOLSTEPS_HOME/mcp-token
 * (made on first use, mode 0600), so other users of this machine cannot call
 * the connections through the server. Only the file's path is printed.
 * --no-token serves loopback without one; beyond loopback the server refuses
 * to start without an explicit token.
 */
async function httpToken(options: McpOptions): Promise<string | undefined> {
  const given = [
    options.tokenEnv !== undefined && '--token-env',
    options.tokenFile !== undefined && '--token-file',
    !options.token && '--no-token',
  ].filter((flag): flag is string => typeof flag === 'string');
  if (given.length > 1) {
    throw new InputError(`${given.join(' and ')} contradict each other: pick one.`, [
      { path: 'token-file', message: `conflicts with ${given.join(', ')}` },
    ]);
  }
  const [{ readTokenFile, ensureTokenFile }, { isLoopbackHost }] = await Promise.all([
    import('../../src/mcp/transports/token-file.js'),
    import('../../src/server/host-origin-guard.js'),
  ]);
  if (options.tokenEnv !== undefined) return secretFromEnv(options.tokenEnv, 'token-env');
  if (options.tokenFile !== undefined) return readTokenFile(path.resolve(options.tokenFile));
  if (!options.token || !isLoopbackHost(options.host)) return undefined;
  const file = path.join(defaultToolstepsHome(), 'mcp-token');
  const { token } = await ensureTokenFile(file);
  process.stderr.write(`Clients must send "Authorization: Bearer <the token in ${file}>".\n`);
  return token;
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
    .option(
      '--host <address>',
      'HTTP address; anything but loopback needs --token-file or --token-env',
      '127.0.0.1',
    )
    .option(
      '--token-file <path>',
      'file holding the bearer token HTTP clients must send; refused unless only you can read it (default on loopback: $TOOLSTEPS_HOME/mcp-token, made if missing)',
    )
    .option('--token-env <name>', "environment variable holding the bearer token for the run's tenant")
    .option(
      '--no-token',
      'serve loopback HTTP without a token: any user of this machine can then call every connection',
    )
    .option(
      '--max-sessions <n>',
      'most HTTP client sessions at once; the quietest gives way to a new client',
      '64',
    )
    .option(
      '--session-idle <seconds>',
      'close an HTTP session idle this long (no request, no open stream)',
      '1800',
    )
    .option('--allow-origin <origin>', 'a browser origin allowed besides loopback ones (repeatable)', collect)
    .option('--integrations <ids>', 'only these integrations, comma-separated')
    .option('--step <ref>', 'offer only this step (repeatable), at its major (x.y@1)', collect)
    .option('--read-only', 'only steps that read')
    .option('--credit-budget <n>', 'refuse, before sending, a call that may cost more credits than this')
    .option('--connection <id>', 'pin this connection for its integration (repeatable)', collect)
    .option('--catalog', 'offer search_steps, describe_step and run_step instead of one tool per step')
    .option('--flat', 'one tool per step, even above 40 tools')
    .option('--watch-interval <ms>', 'how often to look for connection changes (0: never)', '2000')
    .action(async (options: McpOptions) => {
      // A server makes many calls: the dispatcher wire, not a one-shot fetch.
      const { registry, runtime } = await cliContext({ serving: true, caller: 'mcp' });
      const settings = {
        registry,
        runtime,
        mode: modeOf(options),
        version: packageVersion(),
        watchIntervalMs: integerOption(options.watchInterval, '--watch-interval', { min: 0, max: 3_600_000 }),
        ...toolFilterOf(options),
        ...definedOnly({
          creditBudget:
            options.creditBudget === undefined
              ? undefined
              : numberOption(options.creditBudget, '--credit-budget'),
        }),
      };
      const { serveMcpHttp, serveMcpStdio } = await import('../../src/mcp/transports/serve-mcp.js');
      if (!options.http) {
        const running = await serveMcpStdio(settings);
        await Promise.race([running.closed, untilSignal()]);
        await running.close();
        return;
      }
      const { mcpTokenAccess } = await import('../mcp-token-access.js');
      const running = await serveMcpHttp({
        ...settings,
        tokenAccess: await mcpTokenAccess(),
        host: options.host,
        port: integerOption(options.port, '--port', { min: 0, max: 65535 }),
        maxSessions: integerOption(options.maxSessions, '--max-sessions', { min: 1, max: 100_000 }),
        sessionIdleMs: 1000 * integerOption(options.sessionIdle, '--session-idle', { min: 1, max: 604_800 }),
        ...definedOnly({ token: await httpToken(options), allowedOrigins: options.allowOrigin }),
      });
      process.stderr.write(`toolsteps MCP server at ${running.url}\n`);
      await untilSignal();
      await running.close();
    });
}

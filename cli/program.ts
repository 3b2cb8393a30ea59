import { Command, CommanderError } from 'commander';
import { packageVersion } from '../src/disk/package-root.js';
import { InputError } from '../src/errors/input-error.js';
import { closeSharedDispatcher } from '../src/http/dispatcher-wire.js';
import { closeCliStores } from './cli-stores.js';
import { selectTenantFor } from './cli-tenant.js';
import { commandWord } from './command-word.js';
import { EXIT_BAD_INPUT, EXIT_OK, type OutputMode, reportError } from './output.js';
import { SERVING_COMMANDS } from './serving-commands.js';

/**
 * Every top-level command, in the order `--help` lists them, with the module
 * that declares it (its default export registers it): a start that names its
 * command loads that module alone, not the declarations (and what they
 * import) of the other dozen.
 */
export const COMMAND_MODULES: readonly {
  names: readonly string[];
  load: () => Promise<{ default: (program: Command) => void }>;
}[] = [
  { names: ['list', 'search', 'describe'], load: () => import('./commands/catalog-commands.js') },
  { names: ['connections'], load: () => import('./commands/connection-commands.js') },
  { names: ['connect'], load: () => import('./commands/connect-command.js') },
  { names: ['run'], load: () => import('./commands/run-command.js') },
  { names: ['options'], load: () => import('./commands/options-command.js') },
  { names: ['manifest'], load: () => import('./commands/manifest-command.js') },
  { names: ['sandbox'], load: () => import('./commands/sandbox-command.js') },
  { names: ['demo'], load: () => import('./commands/demo-command.js') },
  { names: ['doctor'], load: () => import('./commands/doctor-command.js') },
  { names: ['db'], load: () => import('./commands/db-command.js') },
  { names: ['triggers'], load: () => import('./commands/trigger-commands.js') },
  { names: ['subscriptions'], load: () => import('./commands/subscription-commands.js') },
  { names: ['upgrade'], load: () => import('./commands/upgrade-command.js') },
  { names: ['listen'], load: () => import('./commands/listen-command.js') },
  { names: ['worker'], load: () => import('./commands/worker-command.js') },
  { names: ['mcp'], load: () => import('./commands/mcp-command.js') },
  { names: ['serve'], load: () => import('./commands/serve-command.js') },
  { names: ['ui'], load: () => import('./commands/ui-command.js') },
  { names: ['tenants'], load: () => import('./commands/tenant-commands.js') },
  { names: ['tokens'], load: () => import('./commands/token-commands.js') },
  { names: ['audit'], load: () => import('./commands/audit-command.js') },
  { names: ['eval'], load: () => import('./commands/eval-command.js') },
];

/**
 * The modules to declare for `argv`: the one whose command the first word
 * names (after `--json` at most), or all of them otherwise: no command, an
 * unknown one (help, a typo, which commander answers by listing or
 * suggesting the commands) or another root option first (`--help run`).
 */
function commandModulesFor(argv: readonly string[] | undefined): typeof COMMAND_MODULES {
  const word = argv && commandWord(argv);
  if (!word) return COMMAND_MODULES;
  const named = COMMAND_MODULES.filter((entry) => entry.names.includes(word));
  return named.length ? named : COMMAND_MODULES;
}

/** `--json` anywhere before a `--` that ends the options. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * The command tree: every command, or, given the arguments, only the command
 * they name. Output settings are inherited by subcommands when they
 * are created, so they are set before any command is registered. With
 * `--json`, stdout carries one JSON document and commander's own usage
 * messages are kept off stderr: `runCli` reports them as JSON instead.
 */
export async function buildProgram(
  mode: OutputMode = { json: false },
  argv?: readonly string[],
): Promise<Command> {
  const program = new Command('toolsteps')
    .description('Workflow tool steps for AI agents: run them, connect accounts, and try everything offline.')
    .version(packageVersion(), '-V, --version', 'print the version of toolsteps')
    .option('--json', 'machine-readable output')
    .option(
      '--tenant <id>',
      'the tenant (organization) whose connections, subscriptions and records to use; default TOOLSTEPS_TENANT, else "default"',
    )
    // Checked before any command runs, so a bad tenant id never reaches a store.
    .hook('preAction', async (_program, command) => {
      selectTenantFor(command.optsWithGlobals().tenant);
      if (servesUntilStopped(command)) await startTelemetryOnce(mode.json);
    })
    .configureOutput({
      writeErr: (text) => {
        if (!mode.json) process.stderr.write(text);
      },
      outputError: (text, write) => write(withoutOptionValues(text)),
    })
    .showHelpAfterError()
    .exitOverride();
  const modules = await Promise.all(commandModulesFor(argv).map((entry) => entry.load()));
  for (const module of modules) module.default(program);
  return program;
}

/**
 * A serving command (`serve`, `ui`, `listen`, `worker`, `mcp --http`,
 * `sandbox`): the ones that start the OpenTelemetry SDK when the `OTEL_*`
 * variables ask for it. `mcp` over stdio does not: its stdout is the protocol.
 */
function servesUntilStopped(command: Command): boolean {
  if (command.parent?.parent || !SERVING_COMMANDS.has(command.name())) return false;
  return command.name() !== 'mcp' || Boolean(command.opts().http);
}

/** How to stop the SDK a serving command started, flushing what it holds; set once per process. */
let stopTelemetry: (() => Promise<void>) | undefined;

async function startTelemetryOnce(json: boolean): Promise<void> {
  if (stopTelemetry) return;
  const { startCliTelemetry } = await import('./telemetry/cli-telemetry.js');
  stopTelemetry = await startCliTelemetry(json);
}

/** Runs the CLI and returns its exit code: 0 success, 2 bad input, 1 anything else. */
export async function runCli(argv: string[]): Promise<number> {
  const mode: OutputMode = { json: wantsJson(argv) };
  const program = await buildProgram(mode, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures; usage errors are bad input, which
      // commander has already described on stderr unless --json asked for JSON.
      if (error.exitCode === 0) return EXIT_OK;
      if (mode.json) reportError(usageError(error), mode);
      return EXIT_BAD_INPUT;
    }
    return reportError(error, mode);
  } finally {
    // The servers are closed by now: their last spans and metrics go out first, within a deadline.
    await stopTelemetry?.();
    stopTelemetry = undefined;
    await closeCliStores();
    await closeSharedDispatcher();
  }
}

/**
 * Commander quotes an unknown `--name=value` whole; the value may be a
 * secret typed where only `--name-env VAR` is accepted, so it is cut.
 */
function withoutOptionValues(text: string): string {
  return text.replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=...'");
}

/** A commander usage error (unknown option, missing argument, ...) as the InputError it is. */
function usageError(error: CommanderError): InputError {
  const message =
    error.code === 'commander.help'
      ? 'No command given: run toolsteps --help for the commands.'
      : withoutOptionValues(error.message.replace(/^error:\s*/, ''));
  return new InputError(message, [{ path: 'arguments', message: error.code.replace(/^commander\./, '') }]);
}

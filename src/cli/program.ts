import { Command, CommanderError } from 'commander';
import { InputError } from '../errors/input-error.js';
import { closeSharedDispatcher } from '../http/agent.js';
import { packageVersion } from '../package-root.js';
import { closeCliStores } from './cli-stores.js';
import { registerCatalogCommands } from './commands/catalog-commands.js';
import { registerConnectCommand } from './commands/connect-command.js';
import { registerConnectionCommands } from './commands/connection-commands.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerDoctorCommand } from './commands/doctor-command.js';
import { registerListenCommand } from './commands/listen-command.js';
import { registerManifestCommand } from './commands/manifest-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerSandboxCommand } from './commands/sandbox-command.js';
import { registerSubscriptionCommands } from './commands/subscription-commands.js';
import { registerTriggerCommands } from './commands/trigger-commands.js';
import { registerWorkerCommand } from './commands/worker-command.js';
import { EXIT_BAD_INPUT, EXIT_OK, type OutputMode, reportError } from './output.js';

/** `--json` anywhere before a `--` that ends the options. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * The command tree. Output settings are inherited by subcommands when they
 * are created, so they are set before any command is registered. With
 * `--json`, stdout carries one JSON document and commander's own usage
 * messages are kept off stderr: `runCli` reports them as JSON instead.
 */
export function buildProgram(mode: OutputMode = { json: false }): Command {
  const program = new Command('toolsteps')
    .description('Workflow tool steps for AI agents: run them, connect accounts, and try everything offline.')
    .version(packageVersion(), '-V, --version', 'print the version of toolsteps')
    .option('--json', 'machine-readable output')
    .configureOutput({
      writeErr: (text) => {
        if (!mode.json) process.stderr.write(text);
      },
      outputError: (text, write) => write(withoutOptionValues(text)),
    })
    .showHelpAfterError()
    .exitOverride();
  registerCatalogCommands(program);
  registerConnectionCommands(program);
  registerConnectCommand(program);
  registerRunCommand(program);
  registerManifestCommand(program);
  registerSandboxCommand(program);
  registerDemoCommand(program);
  registerDoctorCommand(program);
  registerTriggerCommands(program);
  registerSubscriptionCommands(program);
  registerListenCommand(program);
  registerWorkerCommand(program);
  registerMcpCommand(program);
  return program;
}

/** Runs the CLI and returns its exit code: 0 success, 2 bad input, 1 anything else. */
export async function runCli(argv: string[]): Promise<number> {
  const mode: OutputMode = { json: wantsJson(argv) };
  const program = buildProgram(mode);
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

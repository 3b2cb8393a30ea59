import { Command, CommanderError } from 'commander';
import { closeSharedDispatcher } from '../http/agent.js';
import { registerCatalogCommands } from './commands/catalog-commands.js';
import { registerConnectCommand } from './commands/connect-command.js';
import { registerConnectionCommands } from './commands/connection-commands.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerManifestCommand } from './commands/manifest-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerSandboxCommand } from './commands/sandbox-command.js';
import { EXIT_BAD_INPUT, reportError } from './output.js';

export function buildProgram(): Command {
  const program = new Command('toolsteps')
    .description('Workflow tool steps for AI agents: run them, connect accounts, and try everything offline.')
    .option('--json', 'machine-readable output')
    .showHelpAfterError()
    .exitOverride();
  registerCatalogCommands(program);
  registerConnectionCommands(program);
  registerConnectCommand(program);
  registerRunCommand(program);
  registerManifestCommand(program);
  registerSandboxCommand(program);
  registerDemoCommand(program);
  return program;
}

/** Runs the CLI and returns its exit code: 0 success, 2 bad input, 1 anything else. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures; usage errors are bad input.
      return error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    return reportError(error, { json: argv.includes('--json') });
  } finally {
    await closeSharedDispatcher();
  }
}

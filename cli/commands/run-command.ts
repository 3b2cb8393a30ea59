import type { Command } from 'commander';
import { collect } from '../option-values.js';
import type { RunOptions } from './run-step-action.js';

/** `run <step-id>`: invoke one step through the full pipeline. */
export default function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run a step with a stored connection and print its output and variables.')
    .argument('<step-id>')
    .requiredOption('--connection <id>', 'connection id')
    .option('--input <json|@file>', 'step input as JSON, or @path to a JSON file')
    .option('--map <name=jsonpath>', 'map an output value to a variable (repeatable)', collect)
    .option('--replace-variables', "use only --map variables, not the step's defaults")
    .option('--credit-budget <n>', 'refuse, before sending, a call that may cost more credits than this')
    .option(
      '--column <header=field>',
      'CSV input: map a column to a record field, or drop it with "header=" (repeatable)',
      collect,
    )
    .option(
      '--with <json>',
      'more input fields as JSON, added to a CSV or JSON-array input (e.g. batch_size)',
    )
    .option(
      '--constraint <key=a,b>',
      'limit what the step may touch, as an embedder would (e.g. projects=shop,docs); repeatable',
      collect,
    )
    .action(async (stepId: string, options: RunOptions, command: Command) => {
      // Loaded on use: the run machinery (csv-parse, the runtime, undici) is no cost to other commands.
      const { runStepAction } = await import('./run-step-action.js');
      await runStepAction(stepId, options, command);
    });
}

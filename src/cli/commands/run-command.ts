import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { InputError } from '../../errors.js';
import { cliContext } from '../cli-context.js';
import { printJson, printValue } from '../output.js';
import { progressBar } from '../progress-bar.js';

interface RunOptions {
  connection: string;
  input?: string;
  map?: string[];
  replaceVariables?: boolean;
  creditBudget?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--input` takes inline JSON or `@file` (a .json file). */
export async function readInput(value: string | undefined): Promise<unknown> {
  if (value === undefined) return {};
  const text = value.startsWith('@') ? await readFile(value.slice(1), 'utf8') : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`--input is not valid JSON: ${(error as Error).message}`, [
      { path: 'input', message: 'invalid JSON' },
    ]);
  }
}

function parseMappings(pairs: string[] = []): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new InputError(`--map expects name=<jsonpath>, got "${pair}".`, [
        { path: 'map', message: 'name=<jsonpath>' },
      ]);
    mapping[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return mapping;
}

/** `run <step-id>`: invoke one step through the full pipeline. */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run a step with a stored connection and print its output and variables.')
    .argument('<step-id>')
    .requiredOption('--connection <id>', 'connection id')
    .option('--input <json|@file>', 'step input as JSON, or @path to a JSON file')
    .option('--map <name=jsonpath>', 'map an output value to a variable (repeatable)', collect)
    .option('--replace-variables', "use only --map variables, not the step's defaults")
    .option('--credit-budget <n>', 'refuse, before sending, a call that may cost more credits than this')
    .action(async (stepId: string, options: RunOptions, command: Command) => {
      const { registry, runtime } = cliContext();
      const step = registry.requireStep(stepId);
      const input = await readInput(options.input);
      const budget = options.creditBudget === undefined ? undefined : Number(options.creditBudget);
      if (budget !== undefined && !(budget >= 0)) {
        throw new InputError('--credit-budget must be a number of credits.', [
          { path: 'credit-budget', message: 'not a number' },
        ]);
      }
      const bar = progressBar(process.stderr);
      try {
        const result = await runtime.invoke(step, {
          connection: options.connection,
          input,
          variables: parseMappings(options.map),
          ...(options.replaceVariables ? { replaceVariables: true } : {}),
          ...(budget === undefined ? {} : { creditBudget: budget }),
          onProgress: bar.update,
        });
        bar.done();
        if (command.optsWithGlobals().json) {
          printJson(result);
          return;
        }
        printValue('output:', result.output);
        printValue('variables:', result.variables);
        const credits = result.meta.credits;
        process.stdout.write(
          `(${result.meta.attempts} request${result.meta.attempts === 1 ? '' : 's'}, ${result.meta.durationMs} ms${
            credits
              ? `, credits charged ${credits.charged ?? 'unknown'} of estimated ${credits.estimated.min}-${credits.estimated.max}`
              : ''
          })\n`,
        );
      } finally {
        bar.done();
      }
    });
}

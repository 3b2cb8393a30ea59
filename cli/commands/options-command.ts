import type { Command } from 'commander';
import type { OptionsFlags } from './options-action.js';

/** `options <step-id> <field>`: the choices of a step's input field, as a form's dropdown would show them. */
export default function registerOptionsCommand(program: Command): void {
  program
    .command('options')
    .description(
      "List the choices of a step's input field, fetched from the connected account (or a closed list, without one).",
    )
    .argument('<step-id>')
    .argument('<field>', 'an input field with options (describe marks them), or an account field by its name')
    .option('--connection <id>', 'connection id (not needed for a closed list)')
    .option('--query <text>', 'narrow the choices (a search at the provider where it has one)')
    .option('--cursor <cursor>', 'the next_cursor of an earlier answer, for the next choices')
    .option('--input <json|@file>', 'the input filled so far, for fields whose choices depend on another')
    .action(async (stepId: string, field: string, flags: OptionsFlags, command: Command) => {
      const { optionsAction } = await import('./options-action.js');
      await optionsAction(stepId, field, flags, command);
    });
}

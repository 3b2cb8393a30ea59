import type { Command } from 'commander';
import { deprecationNote, versionFacts } from '../../src/step/version-facts.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { Catalog } from '../catalog.js';
import { printSearchResults, stepLine } from '../catalog-lines.js';
import { cliRegistry } from '../cli-context.js';
import { printJson } from '../output.js';
import { fieldLines } from '../schema-summary.js';

/** `list`, `search` and `describe`: the catalogue from a terminal. */
export default function registerCatalogCommands(program: Command): void {
  registerListCommand(program);
  registerSearchCommand(program);
  registerDescribeCommand(program);
}

function registerListCommand(program: Command): void {
  program
    .command('list')
    .description('List every integration and its steps.')
    .option('--integration <id>', 'only this integration')
    .action(async (options: { integration?: string }, command: Command) => {
      const catalog = Catalog.read();
      const steps = catalog.listSteps(options.integration);
      if (command.optsWithGlobals().json) {
        printJson(steps.map((step) => ({ id: step.id, title: step.title, access: step.access })));
        return;
      }
      for (const integration of catalog.listIntegrations()) {
        const own = steps.filter((step) => step.integration === integration.id);
        if (!own.length) continue;
        process.stdout.write(`${integration.title}${integration.status === 'beta' ? ' (beta)' : ''}\n`);
        for (const step of own) process.stdout.write(`  ${stepLine(step)}\n`);
      }
    });
}

function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('Search steps by provider name, title, keywords and description.')
    .argument('<words...>', 'what to look for')
    .action(async (words: string[], _options: unknown, command: Command) => {
      printSearchResults(words.join(' '), command.optsWithGlobals().json === true);
    });
}

function registerDescribeCommand(program: Command): void {
  program
    .command('describe')
    .description('Show a step: schemas, default variables, access and idempotency.')
    .argument('<step-id>')
    .option('--connection <id>', "specialise the input to this connection's account (its custom fields)")
    .action(describeStep);
}

/** One step in full: JSON with the schemas under --json, else a readable page with an example. */
async function describeStep(
  stepId: string,
  options: { connection?: string },
  command: Command,
): Promise<void> {
  const registry = await cliRegistry();
  const { describedInput, describedSchema } = await import('../described-schema.js');
  const step = registry.requireStep(stepId);
  const input = await describedInput(step, options.connection);
  const version = versionFacts(step, registry);
  const description = {
    id: step.id,
    ...version,
    title: step.title,
    integration: step.integration,
    description: step.description,
    agentDescription: step.agentDescription,
    access: step.access,
    idempotent: step.idempotent,
    ...definedOnly({ credits: step.credits?.basis }),
    input,
    output: describedSchema(step.output, 'output'),
    variables: step.variables,
    examples: step.examples ?? [],
  };
  if (command.optsWithGlobals().json) {
    printJson(description);
    return;
  }
  const out = process.stdout;
  out.write(`${step.title} (${step.id})\n${step.description}\n\n`);
  out.write(
    `version ${version.version} (${version.reference}); served majors: ${version.majors.join(', ')}\n`,
  );
  const note = deprecationNote(step);
  out.write(note ? `${note}\n\n` : '\n');
  out.write(`For agents: ${step.agentDescription}\n\n`);
  out.write(
    `access: ${step.access}   idempotent: ${step.idempotent}${step.credits ? `   credits: ${step.credits.basis}` : ''}\n\n`,
  );
  out.write(`input:\n${fieldLines(input as never).join('\n')}\n\n`);
  for (const example of step.examples ?? []) {
    out.write(
      `example (${example.title}):\n  toolsteps run ${step.id} --connection <id> --input '${JSON.stringify(example.input)}'\n\n`,
    );
  }
  out.write(
    `default variables:\n${Object.entries(step.variables)
      .map(([k, v]) => `  ${k} = ${v}`)
      .join('\n')}\n\n(the output schema: toolsteps describe ${step.id} --json)\n`,
  );
}

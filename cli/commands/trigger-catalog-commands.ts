import type { Command } from 'commander';
import type { AnyTrigger } from '../../src/triggers/define-trigger.js';
import { cliRegistry } from '../cli-context.js';
import { printJson } from '../output.js';
import { printSearchHits } from '../print-search-hits.js';

const line = (trigger: AnyTrigger) => `${trigger.id.padEnd(36)} ${trigger.title}`;

async function listTriggers(options: { integration?: string }, command: Command): Promise<void> {
  const triggers = (await cliRegistry()).listTriggers(options.integration);
  if (command.optsWithGlobals().json) {
    printJson(
      triggers.map((trigger) => ({
        id: trigger.id,
        integration: trigger.integration.id,
        title: trigger.title,
      })),
    );
    return;
  }
  for (const trigger of triggers) process.stdout.write(`${line(trigger)}\n`);
}

async function searchTriggers(words: string[], _options: unknown, command: Command): Promise<void> {
  const hits = (await cliRegistry()).searchTriggers(words.join(' '));
  printSearchHits(
    command.optsWithGlobals().json === true,
    'trigger',
    hits.map((hit) => ({ item: hit.trigger, score: hit.score })),
    line,
  );
}

async function describeTrigger(reference: string, _options: unknown, command: Command): Promise<void> {
  const registry = await cliRegistry();
  const trigger = registry.requireTrigger(reference);
  const { describedSchema } = await import('../described-schema.js');
  const { payloadSchemaOf, servedTriggerMajors } = await import('../../src/triggers/trigger-at-major.js');
  const { deprecationNote } = await import('../../src/step/version-facts.js');
  const { FIRST_VERSION, parseReference, referenceOf } = await import('../../src/step/step-version.js');
  const { runTriggerExample } = await import('../trigger-example.js');
  const id = parseReference(trigger.id)!.id;
  const majors = servedTriggerMajors(registry.requireTrigger(id)).map((major) => referenceOf(id, major));
  const description = {
    id: trigger.id,
    title: trigger.title,
    integration: trigger.integration.id,
    description: trigger.description,
    agentDescription: trigger.agentDescription,
    version: trigger.version ?? FIRST_VERSION,
    majors,
    deprecated: trigger.deprecated ?? null,
    signature: trigger.verify.name,
    // What mappings read: the parsed payload (an earlier major's own shape), not the provider's body.
    payload: describedSchema(payloadSchemaOf(trigger), 'output'),
    setup: describedSchema(trigger.setup, 'input'),
    variables: trigger.variables,
    example: runTriggerExample(trigger) ?? null,
  };
  if (command.optsWithGlobals().json) {
    printJson(description);
    return;
  }
  const out = process.stdout;
  out.write(
    `${trigger.title} (${trigger.id})\n${trigger.description}\n\nversion ${description.version}; served majors: ${majors.join(', ')}\n`,
  );
  const note = deprecationNote(trigger);
  out.write(`${note ? `${note}\n` : ''}\nFor agents: ${trigger.agentDescription}\n\n`);
  out.write(
    `signature: ${trigger.verify.name}\n\nsetup options:\n${JSON.stringify(description.setup, null, 2)}\n\n`,
  );
  out.write(
    `default variables:\n${Object.entries(trigger.variables)
      .map(([name, path]) => `  ${name} = ${path}`)
      .join('\n')}\n`,
  );
  if (description.example) {
    out.write(
      `\nexample: the variables an agent receives for this event (toolsteps triggers test <subscription> delivers it for real):\n${JSON.stringify(description.example.variables, null, 2)}\n`,
    );
  }
}

/** `triggers list|search|describe`: the trigger catalogue from a terminal. */
export function registerTriggerCatalogCommands(triggers: Command): void {
  triggers
    .command('list')
    .description('List every trigger.')
    .option('--integration <id>', 'only this integration')
    .action(listTriggers);
  triggers
    .command('search')
    .description('Search triggers by provider name, title, keywords and description.')
    .argument('<words...>', 'what to look for')
    .action(searchTriggers);
  triggers
    .command('describe')
    .description('Show a trigger: payload and setup schemas, default variables, signature scheme.')
    .argument('<trigger-id>')
    .action(describeTrigger);
}

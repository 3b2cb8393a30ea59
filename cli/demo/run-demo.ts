import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { loadSandbox } from '../library-sandbox.js';
import { anzDataStory } from './anz-data-story.js';
import { contactDataStory } from './contact-data-story.js';
import type { DemoContext } from './demo-context.js';
import { deploymentsStory } from './deployments-story.js';
import { governanceStory } from './governance-story.js';
import { tenantsStory } from './tenants-story.js';
import { ticketingStory } from './ticketing-story.js';
import { triggersStory } from './triggers-story.js';

export type DemoStory = (demo: DemoContext) => Promise<void>;

/** Every story the demo tells, in order. */
export const demoStories: DemoStory[] = [
  ticketingStory,
  anzDataStory,
  contactDataStory,
  governanceStory,
  deploymentsStory,
  triggersStory,
  tenantsStory,
];

function render(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 110 ? `${text.slice(0, 107)}...` : text;
}

/**
 * Starts the sandbox in this process and runs every story against it with
 * an in-memory connection store, so the demo leaves nothing behind.
 */
export async function runDemo(
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> {
  const { startSandbox } = await loadSandbox();
  const sandbox = await startSandbox();
  const runtime = new Runtime({ store: new MemoryConnectionStore() });
  const registry = createRegistry();
  write(`toolsteps demo: sandbox running at ${sandbox.url}`);
  const demo: DemoContext = {
    sandbox,
    runtime,
    registry,
    say: (text) => write(`  ${text}`),
    heading: (text) => write(`\n== ${text}`),
    async step(stepId, connection, input, note) {
      const result = await registry.invokeUnchecked(runtime, stepId, { connection, input });
      const credits = result.meta.credits;
      write(
        `  ${stepId}${note ? ` (${note})` : ''}: ${result.meta.attempts} request(s)${credits ? `, credits ${credits.charged ?? '?'} (estimated ${credits.estimated.min}-${credits.estimated.max})` : ''}`,
      );
      for (const [name, value] of Object.entries(result.variables)) write(`    ${name} = ${render(value)}`);
      return result as never;
    },
  };
  try {
    for (const story of demoStories) await story(demo);
    write('\nDemo finished: every step ran against the sandbox.');
  } finally {
    await sandbox.close();
  }
}

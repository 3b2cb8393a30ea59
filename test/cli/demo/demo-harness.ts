import type { DemoContext } from '../../../cli/demo/demo-context.js';
import type { DemoStory } from '../../../cli/demo/run-demo.js';
import { type Sandbox, startSandbox } from '../../../sandbox/index.js';
import type { InvocationResult } from '../../../src/runtime/runtime.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../../steps/index.js';

/** How a test records a step the story ran: the lines it adds for it. */
export type StepLines = (stepId: string, result: InvocationResult, note: string | undefined) => string[];

/** By default a step is one line: its id and the variables an agent would see. */
const idAndVariables: StepLines = (stepId, result) => [`${stepId} ${JSON.stringify(result.variables)}`];

/**
 * Tells one demo story as `toolsteps demo` does, against `sandbox` (or a
 * fresh one, closed after), with a runtime over an empty in-memory store,
 * and returns the lines it printed: what it says, its headings (`== `), and
 * `stepLines` for each step it runs.
 */
export async function tellStory(
  story: DemoStory,
  options: { sandbox?: Sandbox; runtime?: Runtime; stepLines?: StepLines } = {},
): Promise<string[]> {
  const sandbox = options.sandbox ?? (await startSandbox());
  const runtime = options.runtime ?? new Runtime({ store: new MemoryConnectionStore() });
  const registry = createRegistry();
  const stepLines = options.stepLines ?? idAndVariables;
  const lines: string[] = [];
  const demo: DemoContext = {
    sandbox,
    runtime,
    registry,
    say: (text) => lines.push(text),
    heading: (text) => lines.push(`== ${text}`),
    async step(stepId, connection, input, note) {
      const result = await registry.invokeUnchecked(runtime, stepId, { connection, input });
      lines.push(...stepLines(stepId, result, note));
      return result as never;
    },
  };
  try {
    await story(demo);
  } finally {
    if (!options.sandbox) await sandbox.close();
  }
  return lines;
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import type { DemoContext } from '../../src/cli/demo/demo-context.js';
import { demoStories } from '../../src/cli/demo/run-demo.js';
import { triggersStory } from '../../src/cli/demo/triggers-story.js';
import { MemoryConnectionStore } from '../../src/connection/memory-store.js';
import { Runtime } from '../../src/runtime.js';
import { createRegistry } from '../../steps/index.js';

describe('the triggers demo story', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('is one of the demo stories', () => {
    expect(demoStories).toContain(triggersStory);
  });

  it('starts one event for a status change and refuses its replay', async () => {
    const lines: string[] = [];
    const runtime = new Runtime({ store: new MemoryConnectionStore() });
    const registry = createRegistry();
    const demo: DemoContext = {
      sandbox,
      runtime,
      registry,
      say: (text) => lines.push(text),
      heading: (text) => lines.push(`== ${text}`),
      async step(stepId, connection, input) {
        const result = await registry.invokeUnchecked(runtime, stepId, { connection, input });
        lines.push(`${stepId} ${JSON.stringify(result.variables)}`);
        return result as never;
      },
    };
    await triggersStory(demo);
    const events = lines.filter((line) => line.startsWith('event '));
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('ticketing.ticket_status_changed');
    expect(events[0]).toContain('"status":"SOLVED"');
    expect(lines.at(-1)).toBe('the same delivery again: 200 duplicate; events started in all: 1');
  });
});

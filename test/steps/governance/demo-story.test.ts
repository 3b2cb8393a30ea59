import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../sandbox/index.js';
import type { DemoContext } from '../../../src/cli/demo/demo-context.js';
import { governanceStory } from '../../../src/cli/demo/governance-story.js';
import { demoStories } from '../../../src/cli/demo/run-demo.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import { Runtime } from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

describe('the governance demo story', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('is one of the demo stories', () => {
    expect(demoStories).toContain(governanceStory);
  });

  it('runs every governance step and ends with the two refusals', async () => {
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
    await governanceStory(demo);
    const ran = lines.map((line) => line.split(' ')[0]).filter((word) => word?.startsWith('governance.'));
    expect(ran).toEqual([
      'governance.create_project',
      'governance.invite_user',
      'governance.change_invite_role',
      'governance.invite_user',
      'governance.update_user_role',
      'governance.remove_user',
    ]);
    expect(lines.join('\n')).toContain('"status":"accepted"');
    expect(lines.at(-3)).toContain('refused with permission_denied');
    expect(lines.at(-1)).toContain('refused with reauthorization_required');
    expect(lines.at(-1)).toContain('deactivated');
  });
});

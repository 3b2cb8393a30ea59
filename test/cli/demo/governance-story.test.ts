import { describe, expect, it } from 'vitest';
import { governanceStory } from '../../../cli/demo/governance-story.js';
import { demoStories } from '../../../cli/demo/run-demo.js';
import { tellStory } from './demo-harness.js';

describe('the governance demo story', () => {
  it('is one of the demo stories', () => {
    expect(demoStories).toContain(governanceStory);
  });

  it('runs every governance step and ends with the two refusals', async () => {
    const lines = await tellStory(governanceStory);
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

import { describe, expect, it } from 'vitest';
import { demoStories } from '../../../cli/demo/run-demo.js';
import { triggersStory } from '../../../cli/demo/triggers-story.js';
import { tellStory } from './demo-harness.js';

describe('the triggers demo story', () => {
  it('is one of the demo stories', () => {
    expect(demoStories).toContain(triggersStory);
  });

  it('starts one event for a status change and refuses its replay', async () => {
    const lines = await tellStory(triggersStory);
    const events = lines.filter((line) => line.startsWith('event '));
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('ticketing.ticket_status_changed');
    expect(events[0]).toContain('"status":"SOLVED"');
    expect(lines.at(-1)).toBe('the same delivery again: 200 duplicate; events started in all: 1');
  });
});

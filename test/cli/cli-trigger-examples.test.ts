import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../steps/index.js';
import { cli, useCliHome } from './cli-harness.js';

useCliHome('toolsteps-cli-trigger-examples-', { scope: 'all' });

/** The example `triggers describe --json` ran for `reference`. */
async function describedExample(reference: string) {
  const described = await cli('triggers', 'describe', reference, '--json');
  expect(described.code, described.err).toBe(0);
  return JSON.parse(described.out).example as { body: unknown; variables: Record<string, unknown> } | null;
}

describe('toolsteps triggers describe runs the example', () => {
  it('every trigger of the catalogue shows the variables its example event maps to, each default variable read', async () => {
    for (const trigger of createRegistry().listTriggers()) {
      const example = await describedExample(trigger.id);
      expect(example, trigger.id).not.toBeNull();
      expect(Object.keys(example!.variables).sort(), trigger.id).toEqual(
        Object.keys(trigger.variables).sort(),
      );
      const read = Object.values(example!.variables).filter((value) => value !== undefined);
      expect(read.length, `${trigger.id} maps nothing from its own example`).toBeGreaterThan(0);
    }
  }, 60_000);

  it('an earlier major maps its own payload: Ticket Assigned @1 and @2 give the same assignee from one event', async () => {
    const latest = await describedExample('ticketing.ticket_assigned');
    const first = await describedExample('ticketing.ticket_assigned@1');
    expect(latest!.variables.assignee).toBe('8447388090111');
    expect(first!.variables).toEqual(latest!.variables);
    expect(first!.body).toEqual(latest!.body);
  });

  it('the readable page ends with the example variables', async () => {
    const page = await cli('triggers', 'describe', 'ticketing.comment_added');
    expect(page.code).toBe(0);
    expect(page.out).toMatch(/example: the variables an agent receives[^\n]*\n\{\n {2}"ticket_id": /);
  });
});

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../steps/index.js';

/** Every trigger's example is a delivery its own schema accepts, and parses back to the facts it was given. */
describe('trigger examples', () => {
  const triggers = createRegistry().listTriggers();

  it.each(triggers.map((trigger) => [trigger.id, trigger] as const))('%s', (_id, trigger) => {
    expect(trigger.example).toBeTypeOf('function');
    const facts = { eventId: 'evt-example-1', occurredAt: '2026-03-01T10:00:00.000Z' };
    const parsed = trigger.event.safeParse(trigger.example!(facts));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(trigger.parse(parsed.data)).toEqual(facts);
    expect(trigger.webhook?.status).toBeTypeOf('function');
    // Either the provider sends a test delivery, or the trigger says why not.
    expect(Boolean(trigger.webhook?.test) || Boolean(trigger.webhook?.noTest)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Registry } from '../../src/catalog/registry.js';
import { defineStep } from '../../src/step/define-step.js';
import { defineTrigger } from '../../src/triggers/define-trigger.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import ticketCreated from '../../steps/ticketing/triggers/ticket-created.js';
import { aboutTestStep } from '../support/test-step.js';

/** A step whose schemas are getters, counting how often each is built. */
function lazyProbe(options?: Record<string, { load: () => Promise<{ items: [] }> }>) {
  const built = { input: 0, output: 0 };
  const step = defineStep({
    id: 'ticketing.probe_lazy',
    ...aboutTestStep(ticketing, 'Probe lazy', 'A step used only to test definitions.'),
    get input() {
      built.input += 1;
      return z.strictObject({ name: z.string().min(1).describe('Who to greet.') });
    },
    get output() {
      built.output += 1;
      return z.object({ greeting: z.string() });
    },
    access: 'read',
    idempotent: true,
    ...(options ? { options } : {}),
    async run(input) {
      return { greeting: `Hello ${input.name}` };
    },
  });
  return { step, built };
}

describe('a step or trigger whose schemas are getters', () => {
  it('builds each schema when first read and keeps it; registering does not build it, describing does', async () => {
    const { step, built } = lazyProbe();
    expect(built).toEqual({ input: 0, output: 0 });
    const registry = Registry.from({ integrations: [ticketing], steps: [step] });
    expect(registry.search('probe lazy', 1)[0]?.step.id).toBe('ticketing.probe_lazy');
    expect(built).toEqual({ input: 0, output: 0 });

    const described = await registry.describe('ticketing.probe_lazy');
    expect(JSON.stringify(described)).toContain('Who to greet.');
    expect(built).toEqual({ input: 1, output: 0 });
    // The same schema on every read: identity, caches keyed by schema and instanceof all see one.
    expect(step.input).toBe(step.input);
    expect(step.input).toBeInstanceOf(z.ZodObject);
    expect(step.input.safeParse({ name: '' }).success).toBe(false);
    expect(step.output.parse({ greeting: 'Hello' })).toEqual({ greeting: 'Hello' });
    expect(built).toEqual({ input: 1, output: 1 });
    expect(Object.isFrozen(step)).toBe(true);
  });

  it('checks the options declared on a getter input when it is first read, on that read and every one after', () => {
    const load = async () => ({ items: [] as [] });
    // Defined without reading the input: the options cannot be checked yet.
    const { step } = lazyProbe({ nmae: { load } });
    expect(() => step.input).toThrow(
      /Step "ticketing\.probe_lazy": options for "nmae", which is not a field of the input/,
    );
    expect(() => step.input).toThrow(/options for "nmae"/);
    // Declared on a field the input has: read as usual.
    expect(lazyProbe({ name: { load } }).step.input.shape.name).toBeInstanceOf(z.ZodString);
  });

  it('builds a trigger’s event and setup schemas when first read, once', () => {
    const { id: _id, event, setup, ...rest } = ticketCreated;
    const built = { event: 0, setup: 0 };
    const trigger = defineTrigger({
      ...rest,
      id: 'ticketing.ticket_created',
      get event() {
        built.event += 1;
        return event;
      },
      get setup() {
        built.setup += 1;
        return setup;
      },
    });
    expect(built).toEqual({ event: 0, setup: 0 });
    expect(trigger.event).toBe(event);
    expect(trigger.event).toBe(event);
    expect(trigger.setup).toBe(setup);
    expect(built).toEqual({ event: 1, setup: 1 });
  });
});

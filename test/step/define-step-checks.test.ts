import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineStep } from '../../src/step/define-step.js';
import { defineTrigger } from '../../src/triggers/define-trigger.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import ticketCreated from '../../steps/ticketing/triggers/ticket-created.js';
import { aboutTestStep } from '../support/test-step.js';

// Part of this file is for the compiler: tsc checks it (npm test's typecheck), and a
// `@ts-expect-error` line that stops being an error fails the typecheck.

function probe(variables: Record<string, string>) {
  return defineStep({
    id: 'ticketing.probe_status',
    ...aboutTestStep(ticketing, 'Probe', 'A step used only to test definitions.'),
    input: z.strictObject({ name: z.string(), colour: z.string().optional() }),
    output: z.object({ status: z.literal('created'), names: z.array(z.string()), kind: z.enum(['a', 'b']) }),
    access: 'write',
    idempotent: true,
    variables,
    // Literal outputs without `as const`: `status` is 'created', not string; the array written in place is fine.
    async run(input) {
      return { status: 'created', names: [input.name], kind: 'a' };
    },
    // The replay declaration's functions return literals without `as const` too.
    replay: {
      mode: 'gone_means_done',
      alreadyDone: (input) => ({ status: 'created', names: [input.name], kind: 'b' }),
    },
  });
}

/** A write that looks before it sends again: `find` answers a literal output as `run` does. */
const probeReconcile = defineStep({
  id: 'ticketing.probe_reconcile',
  ...aboutTestStep(ticketing, 'Probe reconcile', 'A step used only to test definitions.'),
  input: z.strictObject({ name: z.string() }),
  output: z.object({ status: z.literal('found'), names: z.array(z.string()) }),
  access: 'write',
  idempotent: false,
  variables: {},
  async run(input) {
    return { status: 'found', names: [input.name] };
  },
  replay: { mode: 'reconcile', find: async (input) => ({ status: 'found', names: [input.name] }) },
});

describe('defineStep and defineTrigger check what they are given where it is written', () => {
  it('accept literal outputs without as const', () => {
    expect(probeReconcile.onReplay).toBe('reconcile');
    expect(probe({ status: '$.status', first: '$.names[0]' }).variables).toEqual({
      status: '$.status',
      first: '$.names[0]',
    });
  });

  it('refuse a default variable whose JSONPath does not compile, naming the step and the variable', () => {
    expect(() => probe({ status: '$.status', broken: '$.names[?' })).toThrow(
      /Step "ticketing\.probe_status": default variables\.broken: not a valid RFC 9535 JSONPath/,
    );
    expect(() => probe({ '1st': '$.status' })).toThrow(/default variables\.1st: variable names are/);
    // A leading zero is not the plain form: the JSONPath engine compiles it, and refuses it.
    expect(() => probe({ leading: '$.names[01]' })).toThrow(/variables\.leading/);
  });

  it('refuse a trigger default variable that does not compile', () => {
    const { id: _id, ...rest } = ticketCreated;
    expect(() =>
      defineTrigger({ ...rest, id: 'ticketing.ticket_created', variables: { ticket: '$.ticket..' } }),
    ).toThrow(/Trigger ticketing\.ticket_created: default variables\.ticket: not a valid RFC 9535 JSONPath/);
  });

  it('refuse, at compile time, options for a field the input does not have', () => {
    expect(() =>
      defineStep({
        id: 'ticketing.probe_options',
        ...aboutTestStep(ticketing, 'Probe', 'A step used only to test definitions.'),
        input: z.strictObject({ colour: z.string() }),
        output: z.object({}),
        access: 'read',
        idempotent: true,
        // @ts-expect-error `color` is not a field of the input
        options: { color: { load: async () => ({ items: [] }) } },
        run: async () => ({}),
      }),
    ).toThrow(/options for "color", which is not a field of the input/);
  });
});

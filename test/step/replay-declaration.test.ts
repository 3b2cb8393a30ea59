import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineStep } from '../../src/step/define-step.js';
import { probe } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

// The types are under test here as much as defineStep: tsc checks this file (npm test's
// typecheck), and a `@ts-expect-error` line that stops being an error fails the typecheck.
// Each wrong declaration is also run, as a JavaScript caller would pass it, and must be
// refused when the step is defined.

const Removed = z.object({ id: z.number(), already_done: z.boolean() });
const base = {
  ...aboutTestStep(probe, 'Probe', 'A test-only step.'),
  input: z.object({ id: z.number() }),
  output: Removed,
  run: async (input: { id: number }) => ({ id: input.id, already_done: false }),
};
const alreadyDone = (input: { id: number }) => ({ id: input.id, already_done: true });
const find = async (input: { id: number }) => ({ id: input.id, already_done: true });

describe('one replay declaration', () => {
  it('settles each mode into the fields the runtime reads', () => {
    const hint = () => 'Look first.';
    const write = { ...base, access: 'write', idempotent: false } as const;
    const refused = defineStep({ ...write, id: 'probe.refused', replay: { mode: 'refuse', hint } });
    const reconciled = defineStep({
      ...write,
      id: 'probe.reconciled',
      replay: { mode: 'reconcile', find, hint },
    });
    const gone = defineStep({
      ...base,
      id: 'probe.gone',
      access: 'destructive',
      idempotent: true,
      replay: { mode: 'gone_means_done', alreadyDone },
    });
    expect(refused).toMatchObject({ onReplay: 'refuse', checkHint: hint });
    expect(reconciled).toMatchObject({ onReplay: 'reconcile', reconcile: find, checkHint: hint });
    expect(gone).toMatchObject({ onReplay: 'gone_means_done', alreadyDone });
    // Only what the runtime reads is kept: no `replay`, and no field set to undefined.
    for (const step of [refused, reconciled, gone]) expect(step).not.toHaveProperty('replay');
    expect(Object.keys(gone)).not.toContain('checkHint');
  });

  it('lets a paid, non-idempotent read refuse or reconcile: its replay could charge twice', () => {
    const paid = { ...base, access: 'read', idempotent: false } as const;
    expect(defineStep({ ...paid, id: 'probe.paid', replay: { mode: 'refuse' } }).onReplay).toBe('refuse');
    expect(
      defineStep({ ...paid, id: 'probe.paid_look', replay: { mode: 'reconcile', find } }).reconcile,
    ).toBe(find);
  });

  it("refuses 'gone_means_done' without alreadyDone, or on a step that is not idempotent", () => {
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.a',
        access: 'destructive',
        idempotent: true,
        // @ts-expect-error gone_means_done needs alreadyDone(input, ctx)
        replay: { mode: 'gone_means_done' },
      }),
    ).toThrow('Step "probe.a": replay \'gone_means_done\' needs alreadyDone(input, ctx).');
    expect(() =>
      // @ts-expect-error only an idempotent step is replayed, so only it can find its target gone
      defineStep({
        ...base,
        id: 'probe.b',
        access: 'destructive',
        idempotent: false,
        replay: { mode: 'gone_means_done', alreadyDone },
      }),
    ).toThrow(/replay 'gone_means_done' needs an idempotent step/);
  });

  it("refuses 'reconcile' without find", () => {
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.c',
        access: 'write',
        idempotent: false,
        // @ts-expect-error reconcile needs find(input, ctx)
        replay: { mode: 'reconcile' },
      }),
    ).toThrow('Step "probe.c": replay \'reconcile\' needs find(input, ctx).');
  });

  it('refuses a declaration on a free, idempotent read: nothing there could happen twice', () => {
    expect(() =>
      // @ts-expect-error a free read has nothing a replay could do twice
      defineStep({
        ...base,
        id: 'probe.d',
        access: 'read',
        idempotent: true,
        replay: { mode: 'refuse' },
      }),
    ).toThrow(/replay is for steps whose replay could act or charge twice/);
  });

  it('refuses a mode it does not know, and another mode’s function', () => {
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.e',
        access: 'write',
        idempotent: false,
        // @ts-expect-error a typo in the mode
        replay: { mode: 'reconcil', find },
      }),
    ).toThrow(`replay.mode must be 'refuse', 'reconcile' or 'gone_means_done', not "reconcil".`);
    // The type is all there is for this one: a JavaScript caller's extra key is ignored, as everywhere.
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.f',
        access: 'write',
        idempotent: false,
        // @ts-expect-error find belongs to reconcile, not refuse
        replay: { mode: 'refuse', find },
      }),
    ).not.toThrow();
  });

  it('refuses replay beside a deprecated field: one declaration or the other', () => {
    expect(() =>
      // @ts-expect-error checkHint is replaced by replay's hint
      defineStep({
        ...base,
        id: 'probe.g',
        access: 'write',
        idempotent: false,
        replay: { mode: 'refuse' },
        checkHint: () => 'Look first.',
      }),
    ).toThrow('Step "probe.g": replay replaces checkHint: declare one or the other.');
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.h',
        access: 'write',
        idempotent: false,
        onReplay: 'reconcile',
        // @ts-expect-error onReplay is replaced by replay's mode: declare one or the other
        replay: { mode: 'reconcile', find },
      }),
    ).toThrow(/replay replaces onReplay/);
  });

  it('types find and alreadyDone by the step’s own schemas', () => {
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.i',
        access: 'write',
        idempotent: false,
        // @ts-expect-error find answers the step's output (here without already_done)
        replay: { mode: 'reconcile', find: async (input) => ({ id: input.id }) },
      }),
    ).not.toThrow();
    expect(() =>
      defineStep({
        ...base,
        id: 'probe.j',
        access: 'destructive',
        idempotent: true,
        // @ts-expect-error the input has no `key`
        replay: { mode: 'gone_means_done', alreadyDone: (input) => ({ id: input.key, already_done: true }) },
      }),
    ).not.toThrow();
  });
});

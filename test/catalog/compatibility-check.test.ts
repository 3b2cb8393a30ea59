import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { breakingChanges } from '../../src/catalog/compatibility-check.js';
import { buildManifest } from '../../src/catalog/manifest.js';
import { Registry } from '../../src/catalog/registry.js';
import { type AnyStep, defineStep } from '../../src/step/define-step.js';
import { earlierMajor } from '../../src/step/earlier-major.js';
import { createRegistry } from '../../steps/index.js';
import { probe } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';

// Each manifest here is built from real step definitions by the manifest's own code, so the check reads
// exactly the JSON Schemas `z.toJSONSchema` writes for the change a step author would make.

const Item = z.object({ id: z.number(), state: z.enum(['open', 'closed']), labels: z.array(z.string()) });
const baseInput = {
  title: z.string().max(200),
  priority: z.enum(['low', 'high']).default('low'),
  limit: z.number().int().max(100).optional(),
};
const baseOutput = { item: Item, url: z.string() };

function probeStep(
  input: z.ZodType,
  output: z.ZodType,
  extra: { version?: `${number}.${number}`; earlier?: AnyStep['earlier'] } = {},
): AnyStep {
  return defineStep({
    id: 'probe.make_item',
    ...aboutTestStep(probe, 'Make Item', 'Makes one item.'),
    ...extra,
    input,
    output,
    access: 'read',
    idempotent: true,
    run: async () => ({}),
  } as never) as AnyStep;
}

const manifestOf = (step: AnyStep) => buildManifest(Registry.from({ integrations: [probe], steps: [step] }));
const released = manifestOf(probeStep(z.strictObject(baseInput), z.object(baseOutput)));

function checked(input: z.ZodType, output: z.ZodType = z.object(baseOutput)) {
  return breakingChanges(released, manifestOf(probeStep(input, output)), '2026-11-29');
}

describe('the compatibility check: a breaking change without a new major fails, naming the step, the path and the kind', () => {
  const cases: [string, () => ReturnType<typeof checked>, string, string][] = [
    [
      'a new required input field',
      () => checked(z.strictObject({ ...baseInput, owner: z.string() })),
      'input.owner',
      'required_added',
    ],
    [
      'an optional input field made required',
      () => checked(z.strictObject({ ...baseInput, limit: z.number().int().max(100) })),
      'input.limit',
      'required_added',
    ],
    [
      'a removed input field',
      () => checked(z.strictObject({ title: baseInput.title, priority: baseInput.priority })),
      'input.limit',
      'field_removed',
    ],
    [
      'a narrowed input type',
      () => checked(z.strictObject({ ...baseInput, title: z.literal('fixed') })),
      'input.title',
      'enum_narrowed',
    ],
    [
      'an input type that no longer takes a number',
      () => checked(z.strictObject({ ...baseInput, limit: z.string().optional() })),
      'input.limit',
      'type_narrowed',
    ],
    [
      'a narrowed enum',
      () => checked(z.strictObject({ ...baseInput, priority: z.enum(['high']).default('high') })),
      'input.priority',
      'enum_narrowed',
    ],
    [
      'a changed default',
      () => checked(z.strictObject({ ...baseInput, priority: z.enum(['low', 'high']).default('high') })),
      'input.priority',
      'default_changed',
    ],
    [
      'a lowered maximum',
      () => checked(z.strictObject({ ...baseInput, limit: z.number().int().max(50).optional() })),
      'input.limit',
      'bound_narrowed',
    ],
    [
      'a removed output path',
      () =>
        checked(z.strictObject(baseInput), z.object({ item: Item.omit({ labels: true }), url: z.string() })),
      'output.item.labels',
      'path_removed',
    ],
    [
      'a retyped output path',
      () =>
        checked(
          z.strictObject(baseInput),
          z.object({ item: Item.extend({ id: z.string() }), url: z.string() }),
        ),
      'output.item.id',
      'path_retyped',
    ],
    [
      'an output path inside an array retyped',
      () =>
        checked(
          z.strictObject(baseInput),
          z.object({ item: Item.extend({ labels: z.array(z.number()) }), url: z.string() }),
        ),
      'output.item.labels[*]',
      'path_retyped',
    ],
    [
      'an output path that may now be null',
      () => checked(z.strictObject(baseInput), z.object({ ...baseOutput, url: z.string().nullable() })),
      'output.url',
      'path_retyped',
    ],
    [
      'an output path made optional',
      () => checked(z.strictObject(baseInput), z.object({ ...baseOutput, url: z.string().optional() })),
      'output.url',
      'path_made_optional',
    ],
  ];
  for (const [change, run, path, kind] of cases) {
    it(`fails on ${change}: ${kind} at ${path}`, () => {
      const found = run();
      expect(found.map((entry) => [entry.reference, entry.path, entry.kind])).toContainEqual([
        'probe.make_item@1',
        path,
        kind,
      ]);
      const message = found.find((entry) => entry.path === path)!.message;
      expect(message).toContain('probe.make_item@1');
      expect(message).toContain(path);
      expect(message).toContain(kind);
    });
  }

  it('passes a compatible change: a new optional input field, a wider enum and bound, a new output path', () => {
    const found = checked(
      z.strictObject({
        ...baseInput,
        priority: z.enum(['low', 'high', 'urgent']).default('low'),
        limit: z.number().int().max(500).optional(),
        note: z.string().optional(),
      }),
      z.object({ ...baseOutput, created_at: z.string() }),
    );
    expect(found).toEqual([]);
  });

  it('passes the same breaking change made as a new major that keeps the old one by migration', () => {
    const oldInput = z.strictObject(baseInput);
    const newInput = z.strictObject({ ...baseInput, owner: z.string() });
    const output = z.object(baseOutput);
    const bumped = probeStep(newInput, output, {
      version: '2.0',
      earlier: [
        earlierMajor(
          { input: newInput, output },
          {
            version: '1.0',
            input: oldInput,
            output,
            variables: {},
            deprecated: { replacement: 'probe.make_item@2', endsOn: '2027-06-30' },
            upgradeInput: (old) => ({ ...old, owner: 'unassigned' }),
            downgradeOutput: (out) => out,
          },
        ),
      ],
    });
    expect(breakingChanges(released, manifestOf(bumped), '2026-11-29')).toEqual([]);
  });

  it('fails when a major is dropped before its window ends, and passes once it has ended', () => {
    const newInput = z.strictObject({ ...baseInput, owner: z.string() });
    const output = z.object(baseOutput);
    const withOld = manifestOf(
      probeStep(newInput, output, {
        version: '2.0',
        earlier: [
          earlierMajor(
            { input: newInput, output },
            {
              version: '1.0',
              input: z.strictObject(baseInput),
              output,
              variables: {},
              deprecated: { replacement: 'probe.make_item@2', endsOn: '2027-06-30' },
              upgradeInput: (old) => ({ ...old, owner: 'unassigned' }),
              downgradeOutput: (out) => out,
            },
          ),
        ],
      }),
    );
    const withoutOld = manifestOf(probeStep(newInput, output, { version: '2.0' }));
    const early = breakingChanges(withOld, withoutOld, '2027-06-30');
    expect(early).toEqual([
      expect.objectContaining({ reference: 'probe.make_item@1', kind: 'major_removed', path: '' }),
    ]);
    expect(early[0]!.message).toContain('2027-06-30');
    expect(breakingChanges(withOld, withoutOld, '2027-07-01')).toEqual([]);
    // A major bump that drops the old major outright, never deprecated, fails as well.
    expect(breakingChanges(released, withoutOld, '2026-11-29').map((entry) => entry.kind)).toEqual([
      'major_removed',
    ]);
  });

  it('passes the catalogue as it is now against the last release kept in contracts/', () => {
    const lastRelease = JSON.parse(readFileSync('contracts/released-manifest.json', 'utf8'));
    expect(breakingChanges(lastRelease, buildManifest(createRegistry()))).toEqual([]);
  });

  it('would have failed List Tickets 2.0 shipped as 1.1, or shipped without its major 1', () => {
    const lastRelease = JSON.parse(readFileSync('contracts/released-manifest.json', 'utf8'));
    const current = buildManifest(createRegistry());
    const listTickets = current.steps.find((step) => step.id === 'ticketing.list_tickets')!;
    const asMinor = { ...current, steps: [{ ...listTickets, version: '1.1', earlier: undefined }] };
    expect(
      breakingChanges(lastRelease, asMinor)
        .filter((entry) => entry.reference === 'ticketing.list_tickets@1')
        .map((entry) => [entry.path, entry.kind]),
    ).toEqual([
      ['input.created_after', 'field_removed'],
      ['input.created_before', 'field_removed'],
    ]);
    const dropped = { ...current, steps: [{ ...listTickets, earlier: undefined }] };
    expect(
      breakingChanges(lastRelease, dropped).filter((entry) => entry.reference === 'ticketing.list_tickets@1'),
    ).toEqual([expect.objectContaining({ kind: 'major_removed' })]);
  });
});

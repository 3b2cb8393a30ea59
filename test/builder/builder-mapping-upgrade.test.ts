import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Registry } from '../../src/catalog/registry.js';
import { defineStep } from '../../src/step/define-step.js';
import { earlierMajor } from '../../src/step/earlier-major.js';
import { probe } from '../support/probe-transport.js';
import { aboutTestStep } from '../support/test-step.js';
import { type BuilderWorld, openBuilderWorld } from './builder-fixture.js';

// A draft saved on an earlier major with a mapping, upgraded through `POST /v1/steps/{id@N}/upgrade`:
// the mapping comes back rewritten through the major's output path map, and a variable with no
// counterpart in the new major is listed, not kept and not dropped unsaid.

const Input = z.object({ open_only: z.boolean().optional() });
const ItemsOutput = z.object({ items: z.array(z.object({ ticket_id: z.number(), title: z.string() })) });
const TicketsOutput = z.object({
  tickets: z.array(z.object({ id: z.number(), title: z.string() })),
  legacy_flag: z.boolean(),
});

const listItems = defineStep({
  id: 'probe.list_items',
  ...aboutTestStep(probe, 'List Items', 'Lists items.'),
  version: '2.0',
  changelog: { '1.0': 'First version.', '2.0': 'Tickets are items, their id a ticket_id.' },
  input: Input,
  output: ItemsOutput,
  variables: { ids: '$.items[*].ticket_id' },
  access: 'read',
  idempotent: true,
  run: async () => ({ items: [] }),
  earlier: [
    earlierMajor(
      { input: Input, output: ItemsOutput },
      {
        version: '1.0',
        input: Input,
        output: TicketsOutput,
        variables: { ids: '$.tickets[*].id', flag: '$.legacy_flag' },
        deprecated: { replacement: 'probe.list_items@2', endsOn: '2027-06-30' },
        upgradeInput: (input) => input,
        downgradeOutput: (output) => ({
          tickets: output.items.map((item) => ({ id: item.ticket_id, title: item.title })),
          legacy_flag: false,
        }),
        outputPaths: {
          '$.tickets': '$.items',
          '$.tickets[*].id': '$.items[*].ticket_id',
          '$.legacy_flag': null,
        },
      },
    ),
  ],
});

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld({ registry: Registry.from({ integrations: [probe], steps: [listItems] }) });
});
afterAll(() => world.close());

describe('upgrading a draft’s mapping through the builder API', () => {
  it('rewrites the moved paths and lists the variables with no counterpart', async () => {
    const answer = await world.json('/v1/steps/probe.list_items@1/upgrade', {
      body: {
        input: { open_only: true },
        mapping: { first: '$.tickets[0].id', first_title: "$.tickets[0]['title']", old: '$.legacy_flag' },
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      from: 'probe.list_items@1',
      reference: 'probe.list_items@2',
      input: { open_only: true },
      // `ids`, a default of both majors, moved to major 2's own default: nothing to save for it.
      mapping: { first: '$.items[0].ticket_id', first_title: '$.items[0].title' },
      moved: [
        { variable: 'ids', from: '$.tickets[*].id', to: '$.items[*].ticket_id' },
        { variable: 'first', from: '$.tickets[0].id', to: '$.items[0].ticket_id' },
        { variable: 'first_title', from: "$.tickets[0]['title']", to: '$.items[0].title' },
      ],
      unmatched: [
        { variable: 'flag', path: '$.legacy_flag', reason: expect.stringContaining('no counterpart') },
        { variable: 'old', path: '$.legacy_flag', reason: expect.stringContaining('no counterpart') },
      ],
    });
  });

  it('with replaceVariables, rewrites only the saved mapping, no defaults', async () => {
    const answer = await world.json('/v1/steps/probe.list_items@1/upgrade', {
      body: { input: {}, mapping: { ids: '$.tickets[*].id' }, replaceVariables: true },
    });
    expect(answer.body).toMatchObject({
      mapping: { ids: '$.items[*].ticket_id' },
      moved: [{ variable: 'ids', from: '$.tickets[*].id', to: '$.items[*].ticket_id' }],
      unmatched: [],
    });
  });

  it('refuses a mapping that is not names to paths', async () => {
    const answer = await world.json('/v1/steps/probe.list_items@1/upgrade', {
      body: { input: {}, mapping: { first: 1 } },
    });
    expect([answer.status, answer.body.error.code]).toEqual([400, 'input_invalid']);
  });
});

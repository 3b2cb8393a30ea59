import { describe, expect, it } from 'vitest';
import { fieldLines, typeOf } from '../../cli/schema-summary.js';
import { cli, jsonError } from './cli-harness.js';

describe('toolsteps describe', () => {
  it('shows the inputs readably: type, required or default, description', async () => {
    const result = await cli('describe', 'ticketing.list_tickets');
    expect(result.code).toBe(0);
    expect(result.out).toContain('  status (new | open | pending | hold | solved | closed, optional): ');
    expect(result.out).toContain('  limit (integer 1-100, default 25): Tickets per page, 1 to 100.');
    expect(result.out).not.toContain('"$schema"');
  });

  it('shows each example as a run command, and --json carries them', async () => {
    const human = await cli('describe', 'ticketing.create_ticket');
    expect(human.out).toContain(
      `example (Open a ticket that a retry cannot duplicate):\n  toolsteps run ticketing.create_ticket --connection <id> --input '{"subject":"VPN down"`,
    );
    const json = JSON.parse((await cli('describe', 'deployments.api_call', '--json')).out);
    expect(json.examples[0]).toMatchObject({ input: { method: 'GET', path: '/v9/projects' } });
    expect(json.input.type).toBe('object');
  });

  it('a typo suggests the ids it is closest to, first', async () => {
    const result = await cli('describe', 'create_tiket', '--json');
    expect(result.code).toBe(2);
    expect(jsonError(result).message).toMatch(/Did you mean: ticketing\.create_ticket[,?]/);
    const dotted = await cli('describe', 'anz_data.enrich_persn');
    expect(dotted.err).toMatch(/Did you mean: anz_data\.enrich_person/);
  });

  it('summarises schema shapes', () => {
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string (or null)');
    expect(typeOf({ type: 'array', items: { enum: ['a', 'b'] } })).toBe('list of a | b');
    expect(typeOf({ type: 'integer', minimum: 0, maximum: 2 ** 53 - 1 })).toBe('integer >= 0');
    expect(
      fieldLines({
        type: 'object',
        required: ['people'],
        properties: {
          people: { type: 'array', items: { type: 'object', properties: { email: { type: 'string' } } } },
        },
      }),
    ).toEqual(['  people (list of object, required)', '      email (string, optional)']);
  });
});

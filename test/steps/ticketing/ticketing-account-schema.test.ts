import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

/**
 * Per-account schemas: the sandbox account's custom ticket fields (one of
 * each type, ticketing-directory-seed.ts) as named, typed input properties.
 */
let fx: TicketingFixture;
beforeAll(async () => {
  fx = await ticketingFixture();
});
afterAll(() => fx.close());

type Properties = Record<string, Record<string, unknown>>;

describe('ticketing custom fields as named properties', () => {
  it('describe with a connection offers each custom field typed; without one the generic schema stays', async () => {
    const generic = await fx.registry.describe('ticketing.create_ticket');
    expect(Object.keys(generic.input.properties as Properties)).not.toContain('product_area');
    expect(generic.accountFields).toEqual([]);
    const specialised = await fx.registry.describe('ticketing.create_ticket', {
      runtime: fx.runtime,
      connection: 'tickets-main',
    });
    const properties = specialised.input.properties as Properties;
    expect(properties.order_number).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(properties.seats).toMatchObject({ anyOf: [{ type: 'integer' }, { type: 'null' }] });
    expect(properties.refund_amount).toMatchObject({ type: ['number', 'null'] });
    expect(properties.vip_customer).toMatchObject({ type: 'boolean' });
    expect(properties.renewal_date).toMatchObject({
      anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    });
    expect(properties.product_area).toMatchObject({
      anyOf: [{ enum: ['billing_portal', 'mobile_app', 'public_api', 'web_dashboard'] }, { type: 'null' }],
    });
    expect(properties.affected_platforms).toMatchObject({
      type: 'array',
      items: { enum: ['android', 'ios', 'linux', 'macos', 'windows'] },
    });
    // System fields (subject, status...) are the step's own, never offered twice.
    expect(specialised.accountFields.map((field) => field.name)).not.toContain('subject');
    expect(properties.assignee!['x-toolsteps-options']).toMatchObject({ searchable: true });
  });

  it('a create with named fields sends them as the provider’s custom_fields', async () => {
    const result = await fx.invokeUnchecked('ticketing.create_ticket', {
      subject: 'Refund',
      description: 'Charged twice.',
      product_area: 'billing_portal',
      affected_platforms: ['ios', 'android'],
      renewal_date: '2026-07-01',
      seats: 12,
      vip_customer: true,
      custom_fields: [{ id: 900_005, value: 'ORD-1' }],
    });
    const sent = fx.requests('ticketing').at(-1)!;
    expect(sent.method).toBe('POST');
    const ticket = (result.output as { ticket: { custom_fields: { id: number; value: unknown }[] } }).ticket;
    expect(ticket.custom_fields).toEqual(
      expect.arrayContaining([
        { id: 900_005, value: 'ORD-1' },
        { id: 900_011, value: 'billing_portal' },
        { id: 900_012, value: ['ios', 'android'] },
        { id: 900_010, value: '2026-07-01' },
        { id: 900_007, value: 12 },
        { id: 900_009, value: true },
      ]),
    );
  });

  it('an update maps named fields too', async () => {
    const result = await fx.invokeUnchecked('ticketing.update_ticket', { ticket_id: 1, seats: 3 });
    const ticket = (result.output as { ticket: { custom_fields: { id: number; value: unknown }[] } }).ticket;
    expect(ticket.custom_fields).toContainEqual({ id: 900_007, value: 3 });
  });

  it('a value that does not fit the account’s field is an input error, and nothing is sent', async () => {
    const before = fx.requests('ticketing').filter((entry) => entry.method !== 'GET').length;
    const refused = async (input: Record<string, unknown>) =>
      fx
        .invokeUnchecked('ticketing.create_ticket', { subject: 'x', description: 'y', ...input })
        .catch((error: unknown) => error);
    expect(await refused({ product_area: 'kitchen_sink' })).toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'product_area' })],
    });
    expect(await refused({ renewal_date: '01/07/2026' })).toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'renewal_date' })],
    });
    expect(await refused({ affected_platforms: ['beos'] })).toMatchObject({ code: 'input_invalid' });
    expect(await refused({ seats: 2.5 })).toMatchObject({ code: 'input_invalid' });
    // A name the account does not have is the step's own unknown-field error.
    expect(await refused({ no_such_field: 1 })).toMatchObject({ code: 'input_invalid' });
    expect(fx.requests('ticketing').filter((entry) => entry.method !== 'GET').length).toBe(before);
  });

  it('the account’s fields are read once per TTL, not per invocation', async () => {
    const fieldReads = () =>
      fx.requests('ticketing').filter((entry) => entry.path.includes('ticket_fields')).length;
    const before = fieldReads();
    await fx.invokeUnchecked('ticketing.update_ticket', { ticket_id: 1, seats: 4 });
    await fx.invokeUnchecked('ticketing.update_ticket', { ticket_id: 1, seats: 5 });
    expect(fieldReads()).toBe(before);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../../src/catalog/compatibility-check.js';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { createRegistry } from '../../../steps/index.js';
import {
  downgradeAssignedPayload,
  TicketAssignedPayloadMajor1,
} from '../../../steps/ticketing/triggers/lib/ticket-assigned-major-1.js';
import ticketAssigned from '../../../steps/ticketing/triggers/ticket-assigned.js';
import { ticketAssignedEvent } from '../../triggers/trigger-fixtures.js';

// Ticket Assigned 2.0 names the assignment; major 1 is its payload migrated back. The migration is
// pure, gives major 1 exactly what it parsed from the same delivery, and the kept release says the
// bump is compatible only while major 1 is kept.

const deliveries = [
  ticketAssignedEvent(),
  { ...ticketAssignedEvent(), event: { previous: null, current: '42', via: 'rule' } },
  { ...ticketAssignedEvent(), event: { current: 7 } },
];

describe('Ticket Assigned majors 1 and 2', () => {
  it.each(deliveries.map((delivery) => [JSON.stringify(delivery.event), delivery]))(
    'the delivery with event %s reads in major 1 as major 1 always read it',
    (_shown, delivery) => {
      const latest = ticketAssigned.event.parse(delivery);
      expect(latest.event).not.toHaveProperty('current');
      const migrated = TicketAssignedPayloadMajor1().parse(downgradeAssignedPayload(latest));
      const asReleased = TicketAssignedPayloadMajor1().parse(delivery);
      // A missing value reads as null in major 2, as it always did through major 1's nullable mapping.
      expect(migrated).toEqual({
        ...asReleased,
        event: { previous: null, current: null, ...asReleased.event },
      });
    },
  );

  it('is pure: the payload it is given is left as it was', () => {
    const latest = ticketAssigned.event.parse(ticketAssignedEvent());
    const copy = structuredClone(latest);
    downgradeAssignedPayload(latest);
    expect(latest).toEqual(copy);
  });

  it('serves @1 deprecated, with its replacement and last day, and @2 as the latest', () => {
    const registry = createRegistry();
    expect(registry.trigger('ticketing.ticket_assigned@1')).toMatchObject({
      id: 'ticketing.ticket_assigned@1',
      version: '1.0',
      deprecated: { replacement: 'ticketing.ticket_assigned@2', endsOn: '2027-06-30' },
      variables: { assignee: '$.event.current' },
    });
    expect(registry.trigger('ticketing.ticket_assigned@2')).toBe(
      registry.trigger('ticketing.ticket_assigned'),
    );
    expect(() => registry.requireTrigger('ticketing.ticket_assigned@3')).toThrow(
      /ticketing\.ticket_assigned@2, ticketing\.ticket_assigned@1/,
    );
  });

  it('passes the compatibility check with major 1 kept, and fails it once major 1 is dropped', () => {
    const released = JSON.parse(readFileSync('contracts/released-manifest.json', 'utf8'));
    const current = buildManifest(createRegistry());
    expect(breakingChanges(released, current, '2026-11-29')).toEqual([]);
    const dropped = {
      ...current,
      triggers: current.triggers.map((trigger) =>
        trigger.id === 'ticketing.ticket_assigned' ? { ...trigger, earlier: undefined } : trigger,
      ),
    };
    expect(breakingChanges(released, dropped, '2026-11-29')).toEqual([
      expect.objectContaining({
        reference: 'ticketing.ticket_assigned@1',
        kind: 'major_removed',
        message: expect.stringContaining('it was never deprecated'),
      }),
    ]);
    // Once the kept release lists major 1 deprecated, dropping it is refused until its window ends.
    expect(breakingChanges(current, dropped, '2026-11-29')).toEqual([
      expect.objectContaining({ kind: 'major_removed', message: expect.stringContaining('2027-06-30') }),
    ]);
    expect(breakingChanges(current, dropped, '2027-07-01')).toEqual([]);
  });
});

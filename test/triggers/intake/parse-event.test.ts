import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../../src/triggers/intake/parse-event.js';
import deploymentStarted from '../../../steps/deployments/triggers/deployment-started.js';
import ticketStatusChanged from '../../../steps/ticketing/triggers/ticket-status-changed.js';
import { deploymentEvent, ticketStatusEvent } from '../trigger-fixtures.js';

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('stage 5: parse and validate against the trigger schema', () => {
  it('reads the event id and time of a ticketing event', () => {
    const parsed = parseEvent(ticketStatusChanged, bytes(ticketStatusEvent({ id: 'evt-7' })));
    expect(parsed.facts).toEqual({ eventId: 'evt-7', occurredAt: '2026-01-01T00:00:00.000Z' });
  });

  it('reads the event id and the epoch-ms time of a deployment event', () => {
    const parsed = parseEvent(
      deploymentStarted,
      bytes(deploymentEvent('deployment.created', { id: 'evt_9' })),
    );
    expect(parsed.facts).toEqual({ eventId: 'evt_9', occurredAt: '2026-01-01T00:00:00.000Z' });
  });

  it('answers 400 naming the failing fields, never their values', () => {
    const event = ticketStatusEvent();
    const broken = {
      ...event,
      id: '',
      detail: { ...event.detail, id: undefined },
      type: 'zen:event-type:other',
    };
    try {
      parseEvent(ticketStatusChanged, bytes(broken));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, code: 'invalid_payload' });
      const paths = (error as { issues: { path: string }[] }).issues.map((issue) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(['type', 'id', 'detail.id']));
      expect(JSON.stringify(error)).not.toContain('zen:event-type:other');
    }
  });

  it('answers 400 to a body that is not JSON, and to another trigger’s event', () => {
    expect(() => parseEvent(ticketStatusChanged, bytes('{"type":'))).toThrowError(
      expect.objectContaining({ status: 400, code: 'invalid_payload' }),
    );
    expect(() => parseEvent(deploymentStarted, bytes(deploymentEvent('deployment.error')))).toThrowError(
      expect.objectContaining({ status: 400 }),
    );
  });
});

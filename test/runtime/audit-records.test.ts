import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/logger.js';
import type { AuditRecord, AuditTrail } from '../../src/store/audit/audit-trail.js';
import { MemoryAuditTrail } from '../../src/store/memory/memory-audit-trail.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

const SUBJECT = 'Printer on fire: card 4111-1111-1111-1111';
const DESCRIPTION = 'call me on +61 400 000 000';
let fx: TicketingFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** Each value of the input and the connection's secrets, none of which an audit record may hold. */
function secretsAndInputs(fixture: TicketingFixture): string[] {
  const { accessToken, refreshToken } = fixture.connection.secrets;
  return [SUBJECT, DESCRIPTION, accessToken!, refreshToken!];
}

describe('audit records of step runs (sandbox over real sockets)', () => {
  it('records writes and destructive runs with who, what, where and how it ended; reads not at all; never an input value', async () => {
    const trail = new MemoryAuditTrail();
    fx = await ticketingFixture({ runtime: { audit: trail, caller: 'support-bot', transport: 'fetch' } });
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(await trail.read()).toEqual([]);
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: SUBJECT,
      description: DESCRIPTION,
    });
    expect(created.meta.audit).toBe('recorded');
    const id = created.output.ticket.id;
    await fx.invoke('ticketing.delete_ticket', { ticket_id: id }, { caller: 'tok_123', test: true });
    const missing = await fx
      .invoke('ticketing.delete_ticket', { ticket_id: 987_654 })
      .catch((error: { code: string }) => error.code);
    expect(missing).toBe('not_found');
    const records = await trail.read();
    const at = new Date(fx.clock.now()).toISOString();
    expect(records).toEqual([
      {
        at,
        step: 'ticketing.create_ticket',
        access: 'write',
        connection: 'tickets-main',
        caller: 'support-bot',
        outcome: 'ok',
      },
      {
        at,
        step: 'ticketing.delete_ticket',
        access: 'destructive',
        connection: 'tickets-main',
        caller: 'tok_123',
        test: true,
        outcome: 'ok',
      },
      {
        at,
        step: 'ticketing.delete_ticket',
        access: 'destructive',
        connection: 'tickets-main',
        caller: 'support-bot',
        outcome: 'error',
        error_code: 'not_found',
      },
    ]);
    const text = JSON.stringify(records);
    for (const value of secretsAndInputs(fx)) expect(text).not.toContain(value);
    expect(text).not.toContain(String(id));
  });

  it('records a write refused before sending (bad input) as an error, with its code', async () => {
    const trail = new MemoryAuditTrail();
    fx = await ticketingFixture({ runtime: { audit: trail } });
    await fx.invokeUnchecked('ticketing.create_ticket', { subject: '' }).catch(() => undefined);
    expect(await trail.read()).toMatchObject([
      { step: 'ticketing.create_ticket', caller: 'library', outcome: 'error', error_code: 'input_invalid' },
    ]);
    expect(fx.requests('ticketing')).toEqual([]);
  });

  it("an append that fails keeps the run's result and error, and reports it (onAuditFailure, else a warning)", async () => {
    const broken: AuditTrail = {
      append: async () => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
      read: async () => [],
    };
    const heard: [unknown, AuditRecord][] = [];
    fx = await ticketingFixture({
      runtime: { audit: broken, onAuditFailure: (error, record) => heard.push([error, record]) },
    });
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: SUBJECT,
      description: DESCRIPTION,
    });
    expect(created.output.ticket.subject).toBe(SUBJECT);
    expect(created.meta.audit).toBe('failed');
    const failed = await fx
      .invoke('ticketing.delete_ticket', { ticket_id: 987_654 })
      .catch((error: { code: string }) => error.code);
    expect(failed).toBe('not_found');
    expect(heard.map(([error, record]) => [(error as Error).message, record.outcome])).toEqual([
      ['disk full', 'ok'],
      ['disk full', 'error'],
    ]);

    const logger = new MemoryLogger();
    await fx.close();
    fx = await ticketingFixture({ runtime: { audit: broken, logger } });
    await fx.invoke('ticketing.create_ticket', { subject: SUBJECT, description: DESCRIPTION });
    const warning = logger.lines.find((line) => line.level === 'warn');
    expect(warning).toMatchObject({
      message: 'could not append the audit record of a step run',
      data: { step: 'ticketing.create_ticket', connection: 'tickets-main', outcome: 'ok' },
    });
    expect(JSON.stringify(logger.lines)).not.toContain(SUBJECT);
  });
});

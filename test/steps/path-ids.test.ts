import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors/index.js';
import { closeAfterEach } from '../support/fixture-lifecycle.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import { type DeploymentsFixture, deploymentsFixture } from './deployments/deployments-fixture.js';

describe('ids that go into a provider path', () => {
  describe('deployments', () => {
    let fx: DeploymentsFixture;
    closeAfterEach(() => fx);

    it.each(['..', '.', '%2e%2e', 'dpl_1%2F..'])('refuses deployment_id %j with nothing sent', async (id) => {
      fx = await deploymentsFixture();
      const cancel = fx.invoke('deployments.cancel_deployment', { deployment_id: id });
      const error = (await cancel.catch((caught: unknown) => caught)) as InputError;
      expect(error).toBeInstanceOf(InputError);
      expect(new Set(error.fields.map((issue) => issue.path))).toEqual(new Set(['deployment_id']));
      expect(fx.wire()).toEqual([]);
    });

    it('refuses a project of ".." on every step that takes one, with nothing sent', async () => {
      fx = await deploymentsFixture();
      await expect(fx.invoke('deployments.list_deployments', { project: '..' })).rejects.toBeInstanceOf(
        InputError,
      );
      await expect(
        fx.invoke('deployments.create_deployment', { project: '..', branch: 'main' }),
      ).rejects.toBeInstanceOf(InputError);
      expect(fx.wire()).toEqual([]);
    });
  });

  describe('ticketing', () => {
    let fx: TicketingFixture;
    const sent = () => fx.sandbox.server.requestLog.filter((entry) => entry.mount === 'ticketing');
    afterEach(async () => {
      await fx.close();
    });

    it.each([true, '0x10', [5], '1e3', '0', ' 1', 1.5])(
      'refuses ticket_id %j without coercing it, with nothing sent',
      async (id) => {
        fx = await ticketingFixture();
        for (const step of ['ticketing.delete_ticket', 'ticketing.get_ticket_info'] as const) {
          const run = fx.invokeUnchecked(step, { ticket_id: id });
          await expect(run).rejects.toBeInstanceOf(InputError);
          await expect(run).rejects.toMatchObject({
            fields: [{ path: 'ticket_id', message: 'must be a positive whole number, such as 42 or "42"' }],
          });
        }
        await expect(
          fx.invokeUnchecked('ticketing.update_ticket', { ticket_id: id, status: 'open' }),
        ).rejects.toBeInstanceOf(InputError);
        expect(sent()).toEqual([]);
      },
    );

    it('accepts 42 and "42" as the same ticket', async () => {
      fx = await ticketingFixture();
      const created = await fx.invoke('ticketing.create_ticket', {
        subject: 'Printer on fire',
        description: 'Third floor.',
      });
      const id = created.output.ticket.id;
      const byNumber = await fx.invoke('ticketing.get_ticket_info', {
        ticket_id: id,
      });
      const byString = await fx.invoke('ticketing.get_ticket_info', {
        ticket_id: String(id),
      });
      expect(byNumber.output.ticket.id).toBe(id);
      expect(byString.output.ticket.id).toBe(id);
      const reads = sent().filter((entry) => entry.path.startsWith(`/acme/api/v2/tickets/${id}.json`));
      expect(reads).toHaveLength(2);
    });
  });
});

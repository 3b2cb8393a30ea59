import { stat } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { acmeConnection } from '../support/acme-connection.js';
import { freePort, untilListening } from '../support/ports.js';
import { signTicketing, TICKETING_SECRET, ticketStatusEvent } from '../triggers/trigger-fixtures.js';
import { cli, createManualSubscription, createTrigger, stopListening, useCliHome } from './cli-harness.js';

const home = useCliHome('toolsteps-cli-triggers-', { scope: 'all', env: ['TOOLSTEPS_PLAN'] });
beforeAll(async () => {
  await new FileConnectionStore(home()).put(acmeConnection('desk', 'desk-token-0123456789'));
});

describe('toolsteps triggers (CLI)', () => {
  it('lists, searches and describes every trigger of the catalogue', async () => {
    const listed = await cli('triggers', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out).map((item: { id: string }) => item.id)).toEqual(
      createRegistry()
        .listTriggers()
        .map((trigger) => trigger.id),
    );
    const found = await cli('triggers', 'search', 'deployment', 'failed', '--json');
    expect(JSON.parse(found.out)[0].id).toBe('deployments.deployment_failed');
    const described = await cli('triggers', 'describe', 'ticketing.comment_added', '--json');
    expect(JSON.parse(described.out)).toMatchObject({ variables: { comment_body: '$.event.comment.body' } });
    expect((await cli('triggers', 'describe', 'ticketing.nothing')).code).toBe(2);
  });

  it('refuses to subscribe below the Enterprise plan (TOOLSTEPS_PLAN)', async () => {
    process.env.TOOLSTEPS_PLAN = 'team';
    const result = await createTrigger(
      'ticketing.ticket_created',
      'desk',
      'https://agents.example.com',
      '--manual',
      '--json',
    );
    delete process.env.TOOLSTEPS_PLAN;
    // Refused before anything was stored or sent: exit 2, like every refusal before sending.
    expect(result.code).toBe(2);
    expect(JSON.parse(result.out).error).toMatchObject({ code: 'plan_required' });
    expect(JSON.parse((await cli('subscriptions', '--json')).out)).toEqual([]);
  });

  it('creates a manual subscription, lists it without its secret, and listen starts one event per delivery', async () => {
    const port = await freePort();
    const created = await createManualSubscription(
      port,
      TICKETING_SECRET,
      '--map',
      'ticket_subject=$.subject',
      '--json',
    );
    expect(created.code).toBe(0);
    const subscription = JSON.parse(created.out);
    expect(subscription).toMatchObject({
      trigger: 'ticketing.ticket_status_changed',
      connection: 'desk',
      url: `http://127.0.0.1:${port}/hooks/${subscription.id}`,
      active: true,
    });
    const listed = await cli('subscriptions', '--json');
    expect(listed.out).not.toContain(TICKETING_SECRET);
    expect(JSON.parse(listed.out)[0]).toMatchObject({ id: subscription.id, hasSecret: true });
    const file = path.join(home(), 'subscriptions', `${subscription.id}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const listening = cli('listen', '--port', String(port), '--json');
    await untilListening(port);
    const body = JSON.stringify(ticketStatusEvent({ time: new Date().toISOString() }));
    const headers = signTicketing(body, new Date().toISOString());
    const send = (text: string, sent: Record<string, string> = headers) =>
      fetch(subscription.url, { method: 'POST', body: text, headers: sent });
    const statuses = [
      (await send(body)).status,
      (await send(body)).status,
      (await send(body.replace('Printer', 'Printes'))).status,
      (
        await send(body, {
          'x-zendesk-webhook-signature-timestamp': headers['x-zendesk-webhook-signature-timestamp'],
        })
      ).status,
      (await send('x'.repeat(300 * 1024))).status,
    ];
    const result = await stopListening(listening);
    const lines = result.events;
    expect(statuses).toEqual([200, 200, 401, 401, 413]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'ticketing.ticket_status_changed',
      event_id: 'cbe4028c-7239-495d-b020-f22348516046',
      variables: { status: 'SOLVED', ticket_subject: 'zen:ticket:5158' },
    });
    expect(Object.keys(lines[0]!)).toEqual([
      'tenant',
      'subscription',
      'trigger',
      'event_id',
      'occurred_at',
      'variables',
      'payload',
    ]);
    const refused = result.err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.refused)
      .map((line) => line.refused.code);
    expect(refused).toEqual(['duplicate', 'bad_signature', 'bad_signature', 'payload_too_large']);

    const status = await cli('triggers', 'status', subscription.id, '--json');
    expect(JSON.parse(status.out).lastDeliveryAt).not.toBeNull();
    expect((await cli('triggers', 'deactivate', subscription.id, '--json')).code).toBe(0);
    expect(JSON.parse((await cli('subscriptions', '--json')).out)[0].active).toBe(false);
    // Activate is a command of its own: it turns the subscription back on, as stored, and says so.
    const activated = await cli('triggers', 'activate', subscription.id, '--json');
    expect(activated.code, activated.err).toBe(0);
    expect(JSON.parse(activated.out)).toMatchObject({ id: subscription.id, active: true });
    expect(JSON.parse((await cli('subscriptions', '--json')).out)[0].active).toBe(true);
    const unknown = await cli('triggers', 'activate', 'sub_00000000000000000000', '--json');
    expect(unknown.code).toBe(2);
    expect(`${unknown.out}${unknown.err}`).toMatch(/not_found/);
    expect((await cli('triggers', 'remove', subscription.id)).code).toBe(0);
    expect(JSON.parse((await cli('subscriptions', '--json')).out)).toEqual([]);
  });

  it('forwards each started event; a failed hand-off answers 500 and the retry starts it once', async () => {
    const port = await freePort();
    const created = await createManualSubscription(port, TICKETING_SECRET, '--json');
    const subscription = JSON.parse(created.out);
    const received: unknown[] = [];
    const agent = createHttpServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => {
        text += chunk;
      });
      request.on('end', () => {
        received.push(JSON.parse(text));
        response.writeHead(received.length === 1 ? 503 : 202).end();
      });
    });
    await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.address() as { port: number }).port}/start`;
    const listening = cli('listen', '--port', String(port), '--forward-to', agentUrl);
    await untilListening(port);
    const body = JSON.stringify(ticketStatusEvent({ id: 'evt-forward' }));
    const headers = signTicketing(body, new Date().toISOString());
    const send = () => fetch(subscription.url, { method: 'POST', body, headers });
    const statuses = [(await send()).status, (await send()).status, (await send()).status];
    const result = await stopListening(listening);
    await new Promise((resolve) => agent.close(resolve));
    expect(statuses).toEqual([500, 200, 200]);
    expect(received).toHaveLength(2);
    expect(result.out.trim().split('\n')).toHaveLength(1);
    expect(result.err).toContain('refused: 500 handler_failed');
    expect(result.err).toContain('refused: 200 duplicate');
    await cli('triggers', 'remove', subscription.id);
  });
});

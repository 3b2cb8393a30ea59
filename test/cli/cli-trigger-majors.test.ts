import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import type { SubscriptionUpgrade } from '../../src/triggers/subscription-upgrades.js';
import { acmeConnection } from '../support/acme-connection.js';
import { freePort, untilListening } from '../support/ports.js';
import { signTicketing, TICKETING_SECRET, ticketAssignedEvent } from '../triggers/trigger-fixtures.js';
import { cli, createTrigger, stopListening, useCliHome } from './cli-harness.js';

// Ticket Assigned is at major 2 and serves major 1 by migration. A subscription saved on @1 keeps
// receiving major 1's payload through `toolsteps listen`; `toolsteps upgrade` lists its mapping's
// changes, and `--apply` moves it to @2 with the mapping rewritten, after which it receives major 2's.

const home = useCliHome('toolsteps-cli-trigger-majors-', { scope: 'all', env: ['TS_MAJOR_SECRET'] });
beforeAll(async () => {
  await new FileConnectionStore(home()).put(acmeConnection('desk', 'desk-token-0123456789'));
});

/** `listen` on `port` while one signed assignment is delivered to `url`; the event it started. */
async function deliverAssignment(port: number, url: string) {
  const listening = cli('listen', '--port', String(port), '--json');
  await untilListening(port);
  const now = new Date().toISOString();
  const body = JSON.stringify(ticketAssignedEvent({ id: randomUUID(), time: now }));
  const answer = await fetch(url, { method: 'POST', body, headers: signTicketing(body, now) });
  const { events } = await stopListening(listening);
  expect(answer.status).toBe(200);
  expect(events).toHaveLength(1);
  return events[0]!;
}

/** The event `listen` printed: from `trigger`, `assignment` under its payload's `event`, and the same variables on either major. */
function expectAssignment(event: TriggerEvent, trigger: string, assignment: Record<string, unknown>) {
  expect(event).toMatchObject({
    trigger,
    payload: { event: assignment },
    variables: { assignee: 8447388090222, previous_assignee: '8447388090111', was: '8447388090111' },
  });
}

const planOf = (out: string, id: string) =>
  (JSON.parse(out) as { subscriptions: SubscriptionUpgrade[] }).subscriptions.find(
    (entry) => entry.subscription === id,
  );

describe('a subscription on a trigger’s earlier major, through toolsteps upgrade', () => {
  it('keeps receiving major 1’s payload, is listed with its mapping changes, and after --apply receives major 2’s', async () => {
    const port = await freePort();
    const target = `http://127.0.0.1:${port}`;
    process.env.TS_MAJOR_SECRET = TICKETING_SECRET;
    const made = (trigger: string, ...map: string[]) =>
      createTrigger(trigger, 'desk', target, '--manual', '--secret-env', 'TS_MAJOR_SECRET', ...map, '--json');
    const saved = JSON.parse(
      (await made('ticketing.ticket_assigned@1', '--map', 'was=$.event.previous')).out,
    );
    // A descendant query no path map can follow: listed, and held back by --apply.
    const loose = JSON.parse((await made('ticketing.ticket_assigned@1', '--map', 'anyone=$..current')).out);
    delete process.env.TS_MAJOR_SECRET;
    expect(saved.trigger).toBe('ticketing.ticket_assigned@1');

    const before = await deliverAssignment(port, saved.url);
    expectAssignment(before, 'ticketing.ticket_assigned@1', {
      previous: '8447388090111',
      current: 8447388090222,
    });
    expect(before.payload).not.toHaveProperty('event.assignee_id');

    const dry = await cli('upgrade', '--json');
    expect(dry.code).toBe(0);
    expect(planOf(dry.out, saved.id)).toMatchObject({
      action: 'upgrade',
      to: 'ticketing.ticket_assigned@2',
      mapping: { was: '$.event.previous_assignee_id' },
      moved: expect.arrayContaining([
        { variable: 'was', from: '$.event.previous', to: '$.event.previous_assignee_id' },
        { variable: 'assignee', from: '$.event.current', to: '$.event.assignee_id' },
      ]),
      unmatched: [],
      applied: false,
    });
    expect(planOf(dry.out, loose.id)).toMatchObject({
      action: 'upgrade',
      unmatched: [
        { variable: 'anyone', path: '$..current', reason: expect.stringContaining('not a plain path') },
      ],
    });
    const human = await cli('upgrade');
    expect(human.out).toContain('was: $.event.previous -> $.event.previous_assignee_id');
    expect(human.out).toContain('anyone: $..current has no counterpart');

    const applied = await cli('upgrade', '--apply', '--json');
    // The subscription whose mapping has no counterpart is held back, so the command says so.
    expect(applied.code).toBe(1);
    expect(planOf(applied.out, saved.id)).toMatchObject({ applied: true });
    expect(planOf(applied.out, loose.id)).toMatchObject({ applied: false });
    const listed = JSON.parse((await cli('subscriptions', '--json')).out) as {
      id: string;
      trigger: string;
    }[];
    expect(listed.find((entry) => entry.id === saved.id)?.trigger).toBe('ticketing.ticket_assigned@2');
    expect(listed.find((entry) => entry.id === loose.id)?.trigger).toBe('ticketing.ticket_assigned@1');

    const after = await deliverAssignment(port, saved.url);
    expectAssignment(after, 'ticketing.ticket_assigned', {
      previous_assignee_id: '8447388090111',
      assignee_id: 8447388090222,
    });
    expect(after.payload).not.toHaveProperty('event.current');
    expect(planOf((await cli('upgrade', '--json')).out, saved.id)).toMatchObject({ action: 'current' });
  });

  it('describes each major: major 1 deprecated with its own payload, major 2 the latest', async () => {
    const old = JSON.parse((await cli('triggers', 'describe', 'ticketing.ticket_assigned@1', '--json')).out);
    expect(old).toMatchObject({
      id: 'ticketing.ticket_assigned@1',
      version: '1.0',
      majors: ['ticketing.ticket_assigned@2', 'ticketing.ticket_assigned@1'],
      deprecated: { replacement: 'ticketing.ticket_assigned@2', endsOn: '2027-06-30' },
      variables: { assignee: '$.event.current' },
    });
    expect(Object.keys(old.payload.properties.event.properties)).toEqual(['previous', 'current']);
    const latest = JSON.parse((await cli('triggers', 'describe', 'ticketing.ticket_assigned', '--json')).out);
    expect(latest).toMatchObject({ version: '2.0', deprecated: null });
    expect(Object.keys(latest.payload.properties.event.properties)).toEqual([
      'assignee_id',
      'previous_assignee_id',
    ]);
    const human = await cli('triggers', 'describe', 'ticketing.ticket_assigned@1');
    expect(human.out).toContain(
      'Deprecated: served until 2027-06-30; use ticketing.ticket_assigned@2 instead.',
    );
  });
});

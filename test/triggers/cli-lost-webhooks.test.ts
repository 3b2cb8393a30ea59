import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../../sandbox/index.js';
import { addSandboxTicketing, cli, createTrigger, useCliWorld } from '../cli/cli-harness.js';
import { flipFault } from '../support/faults.js';

/**
 * Through the CLI, against the sandbox: a create whose answer is lost (and
 * whose look-up fails too) is finished by `activate` with the one webhook
 * the provider made; `status` lists a webhook made by hand that points at
 * us as an orphan, `prune` deletes it and nothing else, and `remove` says
 * what it found at the provider.
 */
const world = useCliWorld('toolsteps-lost-webhooks-', { env: ['TS_LOST_TOKEN'] });
const TARGET = 'http://127.0.0.1:9';

const fault = (rule: FaultRule) => flipFault(world.sandbox, rule);

/** Listing the desk's webhooks is overloaded, asking to come back at once: the look is retried and still fails, without a long backoff. */
const lookOverloaded: FaultRule = {
  target: 'ticketing',
  method: 'GET',
  pathIncludes: '/api/v2/webhooks',
  count: 20,
  action: { kind: 'status', status: 503, headers: { 'retry-after': '0' } },
};

const webhooks = () => [...world.sandbox.ticketing.account('acme').webhooks.values()];

async function json(...args: string[]): Promise<{ code: number; body: Record<string, unknown> }> {
  const result = await cli(...args, '--json');
  return { code: result.code, body: JSON.parse(result.out || '{}') };
}

describe('lost create answers and orphans, through the CLI', () => {
  it('activate adopts, status lists the orphan, prune removes only it, remove reports truthfully', async () => {
    expect((await addSandboxTicketing(world.sandbox, 'desk', 'TS_LOST_TOKEN')).code).toBe(0);
    await fault({
      target: 'ticketing',
      method: 'POST',
      pathIncludes: '/api/v2/webhooks',
      count: 1,
      action: { kind: 'reset', when: 'after' },
    });
    await fault(lookOverloaded);
    const created = await createTrigger('ticketing.ticket_created', 'desk', TARGET);
    expect(created.code).toBe(1);
    world.sandbox.faults.clear();
    const [left] = (await json('subscriptions')).body as unknown as { id: string; state: string }[];
    expect(left?.state).toBe('provisioning');
    expect(webhooks()).toHaveLength(1);

    expect((await json('triggers', 'activate', left!.id)).code).toBe(0);
    expect(webhooks()).toHaveLength(1);
    const adopted = webhooks()[0]!;
    expect(adopted.endpoint).toBe(`${TARGET}/hooks/${left!.id}`);
    expect((await json('subscriptions')).body).toMatchObject([
      { id: left!.id, state: 'ready', active: true, hasSecret: true, provider: { webhook_id: adopted.id } },
    ]);
    expect((await json('triggers', 'status', left!.id)).body).toMatchObject({ webhook: { exists: true } });

    // Made by hand at the provider, pointing at one of our hook URLs that names no subscription.
    const stray = await fetch(`${world.sandbox.baseUrl('ticketing', 'acme')}/api/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${process.env.TS_LOST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: {
          name: 'made by hand',
          endpoint: `${TARGET}/hooks/sub_0000000000000000beef`,
          subscriptions: ['zen:event-type:ticket.created'],
        },
      }),
    });
    const orphanId = ((await stray.json()) as { webhook: { id: string } }).webhook.id;
    const status = await json('triggers', 'status');
    expect(status.code).toBe(1);
    expect(
      (status.body.orphans as { id: string; names: string }[]).map((item) => [item.id, item.names]),
    ).toEqual([[orphanId, 'sub_0000000000000000beef']]);
    const words = await cli('triggers', 'status');
    expect(words.out).toContain('ORPHANS');
    expect(words.out).toContain(orphanId);

    expect((await cli('triggers', 'prune', '--dry-run')).out).toContain(`would remove\n  desk  ${orphanId}`);
    expect(webhooks()).toHaveLength(2);
    const pruned = await json('triggers', 'prune');
    expect(pruned).toMatchObject({ code: 0, body: { pruned: [{ id: orphanId, outcome: 'removed' }] } });
    expect(webhooks().map((webhook) => webhook.id)).toEqual([adopted.id]);
    expect((await json('triggers', 'status')).code).toBe(0);

    // Deleted in the provider's settings: remove says so rather than claiming it removed it.
    world.sandbox.ticketing.account('acme').webhooks.clear();
    const removed = await cli('triggers', 'remove', left!.id);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain(`webhook ${adopted.id} already gone`);
  });

  it('remove of a subscription whose create answer was lost deletes the webhook it finds by URL', async () => {
    await fault({
      target: 'ticketing',
      method: 'POST',
      pathIncludes: '/api/v2/webhooks',
      count: 1,
      action: { kind: 'status', status: 504, when: 'after' },
    });
    await fault(lookOverloaded);
    const args = [
      'triggers',
      'create',
      'ticketing.comment_added',
      '--connection',
      'desk',
      '--target',
      TARGET,
    ];
    expect((await cli(...args)).code).toBe(1);
    world.sandbox.faults.clear();
    const [left] = (await json('subscriptions')).body as unknown as { id: string }[];
    const [lost] = webhooks();
    expect((await json('triggers', 'remove', left!.id)).body).toMatchObject({
      provider: 'removed',
      items: [{ kind: 'webhook', id: lost?.id, outcome: 'removed' }],
    });
    expect(webhooks()).toEqual([]);
  });
});

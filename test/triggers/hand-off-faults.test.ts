import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { type CapturedChild, waitFor } from '../coordination/support/worker-processes.js';
import { alive } from '../support/live-process.js';
import { AgentPlatform } from './support/agent-platform.js';
import { useCliListeners } from './support/cli-listeners.js';
import { deliverAsProvider, deliverOnce, SUBSCRIPTION } from './support/signed-deliveries.js';
import { subscriptionFor } from './trigger-fixtures.js';

/**
 * Faults around the hand-off with file stores, with `toolsteps listen` as
 * the package ships it, in child processes: the listener killed with -9
 * mid-hand-off (issue 22, item 3) and right after its 200s, and an --exec
 * command past its deadline. Those with Redis are in
 * hand-off-redis-outage.test.ts and hand-off-forward-secret.test.ts, so the
 * three files' waits run side by side.
 */

const { listen } = useCliListeners('toolsteps-hand-off-faults');

/**
 * A TOOLSTEPS_HOME for the file-store listeners of the enclosing describe:
 * made before its tests with the one subscription the deliveries are signed
 * for, removed after them. Read it inside a test.
 */
function useSubscribedHome(name: string): () => string {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), `toolsteps-${name}-`));
    await new FileSubscriptionStore(home).put(
      subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }),
    );
  });
  afterAll(() => rm(home, { recursive: true, force: true }));
  return () => home;
}

describe('listen killed with -9 mid-hand-off (file stores)', () => {
  const home = useSubscribedHome('hand-off-kill');
  let platform: AgentPlatform;

  beforeAll(() => {
    platform = new AgentPlatform();
  });

  afterAll(() => platform.close());

  it('a restarted listener takes the dead one’s claim over on a retry, and the event starts exactly once', async () => {
    const env = { TOOLSTEPS_HOME: home() };
    const target = await platform.url();
    const first = await listen(env, '--forward-to', target);
    platform.onArrival = async () => 'hold';
    const cutOff = deliverOnce(first.base, 'evt-killed');
    await waitFor(() => platform.arrived.includes('evt-killed'), 'the hand-off to be under way');
    first.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await cutOff).toMatch(/^no answer/);
    platform.onArrival = async () => 'answer';

    const second = await listen(env, '--forward-to', target);
    const answers = await deliverAsProvider(second.base, 'evt-killed', 30_000);
    const takenOverAfter = Date.now() - killedAt;
    const again = await deliverOnce(second.base, 'evt-killed');
    console.log(
      `[figures] listen killed mid-hand-off: taken over ${takenOverAfter} ms after the kill, answers ${answers.join(', ')}; then ${again}`,
    );
    expect(answers.at(-1)).toBe('200 started');
    expect(answers.every((answer) => answer === '409 in_flight' || answer === '200 started')).toBe(true);
    expect(again).toBe('200 duplicate');
    expect(platform.runs('evt-killed')).toBe(1);
    // One lease (5 s) after the last renewal, plus the restart: far inside any provider's retries.
    expect(takenOverAfter).toBeLessThan(20_000);
  }, 90_000);
});

describe('listen killed with -9 right after its 200s (file stores, done marks in one group commit)', () => {
  const home = useSubscribedHome('after-200-kill');

  /** The event ids a listener printed: one line per started event. */
  const startedBy = (child: CapturedChild) =>
    child.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { event_id: string }).event_id);

  it('forgets no event it answered 200, and starts concurrent copies of one event once', async () => {
    const env = { TOOLSTEPS_HOME: home() };
    const first = await listen(env);
    const ids = Array.from({ length: 40 }, (_, index) => `evt-batch-${index}`);
    // Forty events at once, and five copies of one of them at the same moment.
    const answers = await Promise.all([
      ...ids.map((id) => deliverOnce(first.base, id)),
      ...Array.from({ length: 5 }, () => deliverOnce(first.base, 'evt-batch-0')),
    ]);
    first.process.child.kill('SIGKILL');
    const startedFirst = startedBy(first.process);
    expect(answers.filter((answer) => answer === '200 started')).toHaveLength(40);
    expect(answers.every((answer) => /^(200 started|200 duplicate|409 in_flight)$/.test(answer))).toBe(true);
    expect(startedFirst.sort()).toEqual([...ids].sort());

    const second = await listen(env);
    const again = await Promise.all(ids.map((id) => deliverOnce(second.base, id)));
    expect(again.every((answer) => answer === '200 duplicate')).toBe(true);
    expect(startedBy(second.process)).toEqual([]);
  }, 90_000);
});

describe('listen --exec past its deadline (file stores)', () => {
  const home = useSubscribedHome('hand-off-exec');

  it('stops a command that traps TERM, and its grandchild, before the delivery is answered', async () => {
    const pids = path.join(home(), 'grandchildren');
    const command = `trap '' TERM; sleep 120 & echo $! >> '${pids}'; wait; wait; sleep 120`;
    const { base } = await listen({ TOOLSTEPS_HOME: home() }, '--exec', command, '--exec-timeout', '1');
    const started = Date.now();
    const answer = await deliverOnce(base, 'evt-stubborn');
    const took = Date.now() - started;
    const [grandchild] = (await readFile(pids, 'utf8')).split(/\s+/).filter(Boolean).map(Number);
    const gone = await new Promise<boolean>((resolve) => {
      const check = (left: number) => {
        if (!alive(grandchild as number)) resolve(true);
        else if (left <= 0) resolve(false);
        else setTimeout(() => check(left - 20), 20);
      };
      check(1_000);
    });
    console.log(`[figures] --exec trapping TERM, --exec-timeout 1: answered ${answer} after ${took} ms`);
    expect(answer).toBe('500 handler_failed');
    // The deadline, then the 5 s grace after SIGTERM, then SIGKILL to the group.
    expect(took).toBeGreaterThanOrEqual(6_000);
    expect(took).toBeLessThan(11_000);
    expect(gone).toBe(true);
  }, 60_000);
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coordinator } from '../../src/coordination/coordinator.js';
import { LocalCoordinator } from '../../src/coordination/local-coordinator.js';
import { describeCoordination, openCoordinator } from '../../src/coordination/open-coordinator.js';
import { withLock } from '../../src/store/with-lock.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(1);
const PREFIX = testPrefix('contract');
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (a second at most) until MONITOR has shown what was sent: its lines come after the replies. */
async function waitUntil(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready() && waited < 1_000; waited += 20) await sleep(20);
}

/** The same rules, checked against both implementations. */
function contract(name: string, open: () => Promise<Coordinator>) {
  describe(`${name} coordinator`, () => {
    let coordinator: Coordinator;
    beforeAll(async () => {
      coordinator = await open();
    });
    afterAll(() => coordinator.close());

    it('a lock has one owner; only its token extends or releases it', async () => {
      const held = await coordinator.tryLock('one', 5_000);
      expect(held).toBeDefined();
      expect(await coordinator.tryLock('one', 5_000)).toBeUndefined();
      const stranger = { name: 'one', token: 'not-the-owner' };
      expect(await coordinator.extendLock(stranger, 5_000)).toBe(false);
      expect(await coordinator.releaseLock(stranger)).toBe(false);
      expect(await coordinator.tryLock('one', 5_000)).toBeUndefined();
      expect(await coordinator.extendLock(held!, 5_000)).toBe(true);
      expect(await coordinator.releaseLock(held!)).toBe(true);
      expect(await coordinator.tryLock('one', 5_000)).toBeDefined();
    });

    it('a lock its holder stopped extending expires, and the late holder cannot remove its successor', async () => {
      const first = await coordinator.tryLock('ttl', 150);
      expect(first).toBeDefined();
      await sleep(400);
      const second = await coordinator.tryLock('ttl', 5_000);
      expect(second).toBeDefined();
      expect(await coordinator.releaseLock(first!)).toBe(false);
      expect(await coordinator.extendLock(first!, 5_000)).toBe(false);
      expect(await coordinator.tryLock('ttl', 5_000)).toBeUndefined();
    });

    it('withLock runs one holder at a time and keeps the lock past its TTL while the work runs', async () => {
      const order: string[] = [];
      const task = (label: string) =>
        withLock(
          coordinator,
          'serial',
          async () => {
            order.push(`${label}+`);
            await sleep(2_500); // longer than the TTL below: the heartbeat must keep it
            order.push(`${label}-`);
          },
          { ttlMs: 1_000, waitMs: 20_000, pollMs: 20 },
        );
      await Promise.all([task('a'), task('b')]);
      expect([order.join(' ')]).toContainEqual(expect.stringMatching(/^(a\+ a- b\+ b-|b\+ b- a\+ a-)$/));
    });

    it('a claim renewed by its holder outlives its first lease; a stranger cannot renew it', async () => {
      const first = await coordinator.claim('event-renew', 300);
      if (first.status !== 'claimed') throw new Error('expected a claim');
      expect(await coordinator.renew('event-renew', 'someone-else', 5_000)).toBe(false);
      expect(await coordinator.renew('event-renew', first.token, 5_000)).toBe(true);
      await sleep(500);
      expect((await coordinator.claim('event-renew', 300)).status).toBe('in_flight');
      await coordinator.complete('event-renew', first.token, 60_000);
      expect(await coordinator.renew('event-renew', first.token, 5_000)).toBe(false);
    });

    it('a claim is in flight until completed, then done; a released claim can be taken again', async () => {
      const first = await coordinator.claim('event-1', 5_000);
      expect(first.status).toBe('claimed');
      expect((await coordinator.claim('event-1', 5_000)).status).toBe('in_flight');
      await coordinator.release('event-1', 'someone-else');
      expect((await coordinator.claim('event-1', 5_000)).status).toBe('in_flight');
      if (first.status !== 'claimed') throw new Error('unreachable');
      await coordinator.release('event-1', first.token);
      const again = await coordinator.claim('event-1', 5_000);
      expect(again.status).toBe('claimed');
      if (again.status !== 'claimed') throw new Error('unreachable');
      await coordinator.complete('event-1', again.token, 60_000);
      expect((await coordinator.claim('event-1', 5_000)).status).toBe('done');
    });

    it('claims made in one turn each get their own outcome: one key twice, one done, one free', async () => {
      const done = await coordinator.claim('turn-done', 5_000);
      if (done.status !== 'claimed') throw new Error('expected a claim');
      await coordinator.complete('turn-done', done.token, 60_000);
      const outcomes = await Promise.all([
        coordinator.claim('turn-twice', 5_000),
        coordinator.claim('turn-done', 5_000),
        coordinator.claim('turn-twice', 5_000),
        coordinator.claim('turn-free', 5_000),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['claimed', 'done', 'in_flight', 'claimed']);
      const tokens = outcomes.map((outcome) => (outcome.status === 'claimed' ? outcome.token : ''));
      await Promise.all([
        coordinator.complete('turn-twice', tokens[0] as string, 60_000),
        coordinator.complete('turn-free', tokens[3] as string, 60_000),
      ]);
      const again = await Promise.all([
        coordinator.claim('turn-twice', 5_000),
        coordinator.claim('turn-free', 5_000),
      ]);
      expect(again.map((outcome) => outcome.status)).toEqual(['done', 'done']);
    });

    it('markOnce is true the first time only, and forgets after its TTL', async () => {
      expect(await coordinator.markOnce('idem-1', 200)).toBe(true);
      expect(await coordinator.markOnce('idem-1', 200)).toBe(false);
      await sleep(400);
      expect(await coordinator.markOnce('idem-1', 200)).toBe(true);
    });

    it('a counter adds only within its limit and gives back', async () => {
      expect(await coordinator.addWithinLimit('credits', 6, 10, 60_000)).toEqual({ added: true, total: 6 });
      expect(await coordinator.addWithinLimit('credits', 5, 10, 60_000)).toEqual({ added: false, total: 6 });
      expect(await coordinator.addWithinLimit('credits', -2, 10, 60_000)).toEqual({ added: true, total: 4 });
      expect(await coordinator.addWithinLimit('credits', 6, 10, 60_000)).toEqual({ added: true, total: 10 });
    });

    it('compare-and-set replaces only the expected value', async () => {
      expect(await coordinator.compareAndSet('rt', undefined, 'v1', 60_000)).toBe(true);
      expect(await coordinator.compareAndSet('rt', undefined, 'v2', 60_000)).toBe(false);
      expect(await coordinator.compareAndSet('rt', 'v0', 'v2', 60_000)).toBe(false);
      expect(await coordinator.compareAndSet('rt', 'v1', 'v2', 60_000)).toBe(true);
      expect(await coordinator.getValue('rt')).toBe('v2');
      await coordinator.setValue('rt', 'v3', 60_000);
      expect(await coordinator.getValue('rt')).toBe('v3');
      expect(await coordinator.getValue('absent')).toBeUndefined();
    });

    it('a shared quota lets through what the provider said is left, counting requests in flight', async () => {
      const t0 = 1_000_000;
      const minute = (remaining: number, resetAt: number) => [
        { name: 'minute', remaining, limit: 5, resetAt },
      ];
      await coordinator.observeQuota('conn', minute(3, t0 + 60_000), t0, false);
      const first = [];
      for (let i = 0; i < 4; i += 1) first.push(await coordinator.takeQuota('conn', t0));
      // Three in flight fill what is left; while they fly, look again soon: an answer may give a place back.
      expect(first.map((verdict) => verdict.allowed)).toEqual([true, true, true, false]);
      expect(first[3]).toEqual({ allowed: false, retryAt: t0 + 100 });
      await coordinator.observeQuota('conn', minute(2, t0 + 60_400), t0 + 10, true);
      expect((await coordinator.takeQuota('conn', t0 + 10)).allowed).toBe(false);
      // Answers out of order: the higher count cannot raise what is left.
      await coordinator.observeQuota('conn', minute(0, t0 + 60_000), t0 + 20, true);
      await coordinator.observeQuota('conn', minute(1, t0 + 60_000), t0 + 20, true);
      expect(await coordinator.takeQuota('conn', t0 + 30)).toEqual({ allowed: false, retryAt: t0 + 60_000 });
      // At the reset the window refills to its limit.
      const after = [];
      for (let i = 0; i < 6; i += 1) after.push((await coordinator.takeQuota('conn', t0 + 60_001)).allowed);
      expect(after).toEqual([true, true, true, true, true, false]);
      // A late answer about the window that ended changes nothing but the flight.
      await coordinator.observeQuota('conn', minute(0, t0 + 60_900), t0 + 60_002, true);
      expect((await coordinator.takeQuota('conn', t0 + 60_003)).allowed).toBe(true);
      for (let i = 0; i < 5; i += 1)
        await coordinator.observeQuota('conn', minute(4 - Math.min(i, 4), t0 + 120_000), t0 + 60_010, true);
      await coordinator.observeQuota('conn', minute(0, t0 + 120_000), t0 + 60_010, true);
      expect(await coordinator.takeQuota('conn', t0 + 60_011)).toEqual({
        allowed: false,
        retryAt: t0 + 120_000,
      });
    });

    it('says which mode is active and that it answers', async () => {
      expect(await coordinator.status()).toMatchObject({ mode: coordinator.mode, reachable: true });
    });
  });
}

contract('in-process', async () => new LocalCoordinator());

describe.skipIf(!redisEnabled)('redis', () => {
  beforeAll(() => clearTestKeys(REDIS_URL, PREFIX));
  contract('Redis', () => openCoordinator({ redisUrl: REDIS_URL, prefix: PREFIX }));

  it('the claims of one turn reach Redis as one command, and so do their done marks', async () => {
    const coordinator = await openCoordinator({ redisUrl: REDIS_URL, prefix: PREFIX });
    const watcher = new Redis(REDIS_URL);
    const monitor = await watcher.monitor();
    const seen: string[][] = [];
    // A script's own commands show with the source `lua`: they run inside its one command.
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.some((arg) => arg.startsWith(`${PREFIX}:once:batch-`))) seen.push(args);
    });
    try {
      const keys = Array.from({ length: 5 }, (_, index) => `batch-${index}`);
      const claims = await Promise.all(keys.map((key) => coordinator.claim(key, 5_000)));
      await Promise.all(
        claims.map((claim, index) =>
          claim.status === 'claimed'
            ? coordinator.complete(keys[index] as string, claim.token, 60_000)
            : undefined,
        ),
      );
      await waitUntil(() => seen.length >= 2);
      // A command resent after a reconnect is the one exception; none happens here.
      expect(seen.map((args) => args.filter((arg) => arg.startsWith(`${PREFIX}:once:`)).length)).toEqual([
        5, 5,
      ]);
      expect(claims.map((claim) => claim.status)).toEqual(Array(5).fill('claimed'));
    } finally {
      monitor.disconnect();
      watcher.disconnect();
      await coordinator.close();
    }
  });

  it('describeCoordination reports Redis mode, and an unreachable Redis without waiting out retries', async () => {
    expect(await describeCoordination({ redisUrl: REDIS_URL })).toMatchObject({
      mode: 'redis',
      reachable: true,
      where: REDIS_URL,
    });
    const down = await describeCoordination({ redisUrl: 'redis://user:hunter2@127.0.0.1:1/0' });
    expect(down).toMatchObject({ mode: 'redis', reachable: false });
    expect(JSON.stringify(down)).not.toContain('hunter2');
    expect(await describeCoordination({ env: {} })).toMatchObject({ mode: 'local', reachable: true });
  });
});

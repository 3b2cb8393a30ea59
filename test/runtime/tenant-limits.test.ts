import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Coordinator } from '../../src/coordination/coordinator.js';
import { LocalCoordinator } from '../../src/coordination/local-coordinator.js';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { TenantLimitError } from '../../src/errors/index.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import type { TenantLimits } from '../../src/model/tenant-limits.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryLimitStore } from '../../src/store/memory/memory-limit-store.js';
import { createRegistry } from '../../steps/index.js';
import { type AnzDataFixture, anzDataFixture } from '../steps/anz-data/anz-data-fixture.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(14);
const PREFIX = testPrefix('limits');
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const acme = parseTenantId('acme');
const registry = createRegistry();
// The fixture's clock starts at 2026-01-01 09:00:00 UTC.
const MINUTE_LEFT = 60_000;
const DAY_LEFT = 15 * 3_600_000;

let fx: AnzDataFixture;
let coordinators: Coordinator[] = [];
afterEach(async () => {
  for (const coordinator of coordinators) await coordinator.close();
  coordinators = [];
  await fx?.close();
});

const lookup = (runtime: Runtime, slug = 'olivia-nguyen') =>
  registry.invoke(runtime, 'anz_data.enrich_person', {
    connection: 'anz-main',
    input: { profile_slug: slug },
  });
const outcome = (runtime: Runtime) =>
  lookup(runtime).then(
    () => 'ok',
    (error: TenantLimitError) => `${error.code} retryable=${error.retryable} sent=${String(error.sent)}`,
  );

/** Runtimes of tenant acme over the fixture's connection, each with its own coordinator. */
function runtimes(limits: TenantLimits, coordination: Coordinator[]): Runtime[] {
  return coordination.map(
    (one) => new Runtime({ tenant: acme, store: fx.store, clock: fx.clock, coordination: one, limits }),
  );
}

describe('tenant limits (sandbox over real sockets)', () => {
  it('over calls per minute: a typed, retryable refusal until the next minute, and nothing sent', async () => {
    fx = await anzDataFixture();
    const [runtime] = runtimes({ callsPerMinute: 2 }, [new LocalCoordinator()]);
    expect([await outcome(runtime!), await outcome(runtime!)]).toEqual(['ok', 'ok']);
    fx.clock.advance(20_000);
    const refused = (await lookup(runtime!).catch((error: unknown) => error)) as TenantLimitError;
    expect(refused).toBeInstanceOf(TenantLimitError);
    expect(refused.toJSON()).toMatchObject({
      code: 'tenant_limit_exceeded',
      retryable: true,
      retry_after_ms: MINUTE_LEFT - 20_000,
      sent: false,
      outcome: 'not_sent',
      context: { limit: 'calls_per_minute', allowed: 2 },
    });
    expect(fx.sent()).toHaveLength(2);
    fx.clock.advance(refused.retryAfterMs!);
    expect(await outcome(runtime!)).toBe('ok');
    expect(fx.sent()).toHaveLength(3);
  });

  it("over credits per day: the worst case is reserved, what was not spent comes back, the day's end is the retry", async () => {
    fx = await anzDataFixture();
    const [runtime] = runtimes({ creditsPerDay: 5 }, [new LocalCoordinator()]);
    // Worst case 2 each; olivia costs 2, a person nobody knows costs 0 and gives the 2 back.
    await lookup(runtime!);
    await registry.invoke(runtime!, 'anz_data.enrich_person', {
      connection: 'anz-main',
      input: { email: 'nobody@unknown.example' },
    });
    await lookup(runtime!);
    const refused = (await lookup(runtime!).catch((error: unknown) => error)) as TenantLimitError;
    expect(refused).toMatchObject({
      code: 'tenant_limit_exceeded',
      retryAfterMs: DAY_LEFT,
      context: { limit: 'credits_per_day', allowed: 5, used: 4 },
    });
    expect(fx.sent()).toHaveLength(3);
    fx.clock.advance(DAY_LEFT);
    expect(await outcome(runtime!)).toBe('ok');
  });

  it('a call whose worst case exceeds a whole day is refused for good (credit_budget_exceeded), not retried', async () => {
    fx = await anzDataFixture();
    const [runtime] = runtimes({ creditsPerDay: 1, callsPerMinute: 1 }, [new LocalCoordinator()]);
    const refused = await lookup(runtime!).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'credit_budget_exceeded', retryable: false, sent: false });
    // The refused call gave its place in the minute back: a free call still goes.
    await registry.invoke(runtime!, 'anz_data.api_call', {
      connection: 'anz-main',
      input: { method: 'GET', endpoint: '/credits' },
    });
    expect(fx.sent()).toHaveLength(1);
  });

  it("reads the tenant's stored limits, and a change reaches a running runtime within seconds", async () => {
    fx = await anzDataFixture();
    const stored = new MemoryLimitStore({ callsPerMinute: 1 });
    const runtime = new Runtime({ tenant: acme, store: fx.store, clock: fx.clock, limits: stored });
    expect([await outcome(runtime), await outcome(runtime)]).toEqual([
      'ok',
      'tenant_limit_exceeded retryable=true sent=false',
    ]);
    await stored.set({});
    // Cached for LIMITS_REFRESH_MS of real time: still refused at once, free after.
    expect(await outcome(runtime)).toContain('tenant_limit_exceeded');
    await new Promise((resolve) => setTimeout(resolve, 5100));
    expect(await outcome(runtime)).toBe('ok');
  }, 15_000);
});

describe.skipIf(!redisEnabled)('tenant limits across workers (Redis)', () => {
  beforeAll(() => clearTestKeys(REDIS_URL, PREFIX));
  afterAll(() => clearTestKeys(REDIS_URL, PREFIX));

  async function redisRuntimes(name: string, limits: TenantLimits): Promise<Runtime[]> {
    coordinators = await Promise.all(
      [1, 2].map(() => openCoordinator({ redisUrl: REDIS_URL, prefix: `${PREFIX}-${name}` })),
    );
    return runtimes(limits, coordinators);
  }

  it('two runtimes on one Redis share calls per minute: never more than the limit reaches the provider', async () => {
    fx = await anzDataFixture();
    const [first, second] = await redisRuntimes('calls', { callsPerMinute: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => outcome(index % 2 ? first! : second!)),
    );
    expect(outcomes.filter((one) => one === 'ok')).toHaveLength(3);
    expect(outcomes.filter((one) => one.startsWith('tenant_limit_exceeded'))).toHaveLength(5);
    expect(fx.sent()).toHaveLength(3);
    const other = new Runtime({
      tenant: parseTenantId('globex'),
      store: fx.store,
      clock: fx.clock,
      coordination: coordinators[0],
      limits: { callsPerMinute: 3 },
    });
    // Another tenant's share is its own.
    expect(await outcome(other)).toBe('ok');
  });

  it('two runtimes on one Redis share credits per day', async () => {
    fx = await anzDataFixture();
    const [first, second] = await redisRuntimes('credits', { creditsPerDay: 4 });
    const outcomes = await Promise.all([
      outcome(first!),
      outcome(second!),
      outcome(first!),
      outcome(second!),
    ]);
    expect(outcomes.sort()).toEqual([
      'ok',
      'ok',
      'tenant_limit_exceeded retryable=true sent=false',
      'tenant_limit_exceeded retryable=true sent=false',
    ]);
    expect(fx.sent()).toHaveLength(2);
    // The day's count, where every worker adds to it: the two worst cases of 2 kept (olivia costs 2).
    const key = `${PREFIX}-credits:t:acme:count:tenant-credits:2026-01-01`;
    expect(await (coordinators[0] as RedisCoordinator).client.get(key)).toBe('4');
  });
});

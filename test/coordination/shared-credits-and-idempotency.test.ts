import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Coordinator } from '../../src/coordination/coordinator.js';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { createRegistry } from '../../steps/index.js';
import { type AnzDataFixture, anzDataFixture } from '../steps/anz-data/anz-data-fixture.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(7);
const PREFIX = testPrefix('shared');
const enabled = await redisSuiteEnabled(REDIS_URL);

/**
 * Two runtimes, each with its own Redis connection, stand for two workers:
 * what they share is only what goes through Redis.
 */
describe.skipIf(!enabled)('credit budgets and idempotency records shared by workers (Redis)', () => {
  let fx: AnzDataFixture;
  let coordinators: Coordinator[] = [];
  const registry = createRegistry();
  beforeAll(() => clearTestKeys(REDIS_URL, PREFIX));
  afterEach(async () => {
    for (const coordinator of coordinators) await coordinator.close();
    coordinators = [];
    await fx.close();
  });
  afterAll(() => clearTestKeys(REDIS_URL, PREFIX));

  async function workers(prefix: string): Promise<Runtime[]> {
    fx = await anzDataFixture({ credits: 100 });
    coordinators = await Promise.all([1, 2].map(() => openCoordinator({ redisUrl: REDIS_URL, prefix })));
    return coordinators.map(
      (coordination) => new Runtime({ store: fx.store, clock: fx.clock, coordination }),
    );
  }

  it('a shared budget is never overspent: each paid call reserves its worst case atomically, across workers', async () => {
    const [first, second] = await workers(`${PREFIX}-credits`);
    const lookup = (runtime: Runtime) =>
      registry
        .invoke(runtime, 'anz_data.enrich_person', {
          connection: 'anz-main',
          input: { profile_slug: 'olivia-nguyen' },
          sharedCreditBudget: { pool: 'agent-run-7', limit: 5 },
        })
        .then(
          (result) => result.meta.credits?.charged,
          (error: { code: string; sent: unknown }) => `${error.code} sent=${String(error.sent)}`,
        );
    // Worst case 2 each: two fit in 5, the others are refused before sending.
    const outcomes = await Promise.all([lookup(first!), lookup(second!), lookup(first!), lookup(second!)]);
    expect(outcomes.sort()).toEqual([
      2,
      2,
      'credit_budget_exceeded sent=false',
      'credit_budget_exceeded sent=false',
    ]);
    expect(fx.sent()).toHaveLength(2);
    // A lookup that matches nothing costs nothing and gives its reservation back.
    const empty = await registry.invoke(second!, 'anz_data.enrich_person', {
      connection: 'anz-main',
      input: { email: 'nobody@unknown.example' },
      sharedCreditBudget: { pool: 'agent-run-7', limit: 6 },
    });
    expect(empty.meta.credits?.charged).toBe(0);
    await expect(coordinators[0]!.addWithinLimit('credits:agent-run-7', 0, 6, 60_000)).resolves.toEqual({
      added: true,
      total: 4,
    });
  });

  it('an idempotency key runs once across workers; the repeat gets the recorded result without sending', async () => {
    const [first, second] = await workers(`${PREFIX}-idempotency`);
    const lookup = (runtime: Runtime) =>
      registry.invoke(runtime, 'anz_data.enrich_person', {
        connection: 'anz-main',
        input: { profile_slug: 'olivia-nguyen' },
        idempotencyKey: 'bulk-batch-3:row-12',
      });
    const [a, b] = await Promise.all([lookup(first!), lookup(second!)]);
    expect(fx.sent()).toHaveLength(1);
    expect(a.output).toEqual(b.output);
    expect([a.meta.fromIdempotencyRecord, b.meta.fromIdempotencyRecord].sort()).toEqual([true, undefined]);
  });
});

import { describe, expect, it } from 'vitest';
import { iterateDeployments } from '../../../steps/deployments/lib/iterate-deployments.js';
import type { CatalogInput, CatalogResult } from '../../support/catalog-invoke.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines } from './deployments-fixture.js';

describe('deployments.list_deployments', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  /** The ids iterateDeployments yields for project api, `limit` a page, at most `maxPages` pages. */
  async function apiIds(limit: number, maxPages?: number): Promise<string[]> {
    const ids: string[] = [];
    const options = { connection: fx.connection.id, filters: { project: 'api', limit }, maxPages };
    for await (const deployment of iterateDeployments(fx.runtime, options)) ids.push(deployment.id);
    return ids;
  }

  it('sends every filter as the provider names it', async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    await fx.invoke('deployments.list_deployments', {
      project: 'shop',
      state: ['READY', 'BUILDING'],
      environment: 'production',
      since: '2020-01-01T00:00:00Z',
      until: 1_900_000_000_000,
      limit: 5,
    });
    const [request] = fx.wire();
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/v6/deployments');
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      limit: '5',
      projectId: 'shop',
      target: 'production',
      state: 'READY,BUILDING',
      since: String(Date.parse('2020-01-01T00:00:00Z')),
      until: '1900000000000',
      teamId: 'team_acme',
    });
  });

  it('lists development as the previews it deploys as', async () => {
    fx = await deploymentsFixture();
    const page = await fx.invoke('deployments.list_deployments', {
      project: 'web',
      environment: 'development',
    });
    expect(fx.wire()[0]?.query.get('target')).toBe('preview');
    expect(page.output.deployments.map((deployment) => deployment.environment)).toEqual(['preview']);
  });

  it('pages through more than three pages with until = pagination.next', async () => {
    fx = await deploymentsFixture();
    const seeded = fx.sandbox.deployments.seedDeployments(23, { project: 'api' });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: CatalogResult<'deployments.list_deployments'> = await fx.invoke(
        'deployments.list_deployments',
        {
          project: 'api',
          limit: 5,
          cursor,
        },
      );
      pages += 1;
      seen.push(...page.output.deployments.map((deployment) => deployment.id));
      expect(page.output.has_more).toBe(page.output.next_cursor !== null);
      cursor = page.output.next_cursor ?? undefined;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(seeded.map((deployment) => deployment.id).reverse());
    const untils = fx.wire().map((request) => request.query.get('until'));
    expect(untils[0]).toBeNull();
    // Each next page starts strictly before the last deployment of the previous one.
    for (let page = 1; page < 5; page += 1) {
      const lastOfPrevious = seeded[seeded.length - page * 5];
      expect(untils[page]).toBe(String(lastOfPrevious?.createdAt));
    }
  });

  it('iterates every deployment through the library iterator, one request per page', async () => {
    fx = await deploymentsFixture();
    const seeded = fx.sandbox.deployments.seedDeployments(17, { project: 'api' });
    const ids = await apiIds(4);
    expect(ids).toEqual(seeded.map((deployment) => deployment.id).reverse());
    // Each next page overlaps the previous one by its last millisecond (its repeat is dropped), so
    // 17 deployments 4 at a time take 6 pages: 4 + 3 + 3 + 3 + 3 + 1 new.
    expect(lines(fx.wire())).toEqual(Array(6).fill('GET /v6/deployments'));
    const untils = fx.wire().map((request) => request.query.get('until'));
    expect(untils[1]).toBe(String((seeded[seeded.length - 4]?.createdAt ?? 0) + 1));

    fx.clearWire();
    const capped = await apiIds(4, 2);
    // 4, then 3 new after the one-millisecond overlap.
    expect(capped).toHaveLength(7);
    expect(fx.wire()).toHaveLength(2);
  });

  it('iterates deployments that share the page-boundary millisecond once each, skipping none', async () => {
    fx = await deploymentsFixture();
    // Three pairs, each pair created in one millisecond; pages of 3 split the middle pair.
    const seeded = [];
    for (let pair = 0; pair < 3; pair += 1) {
      seeded.push(...fx.sandbox.deployments.seedDeployments(2, { project: 'api', spacingMs: 0 }));
      fx.clock.advance(1_000);
    }
    const newestFirst = [...seeded].sort((a, b) => b.createdAt - a.createdAt).map((d) => d.id);
    const ids = await apiIds(3);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect([...ids].sort()).toEqual([...newestFirst].sort());
    // Pairs come newest first.
    expect(ids.map((id) => fx.sandbox.deployments.deployment(id)?.createdAt)).toEqual(
      newestFirst.map((id) => fx.sandbox.deployments.deployment(id)?.createdAt),
    );
  });

  it('makes progress when a whole page shares one millisecond', async () => {
    fx = await deploymentsFixture();
    fx.sandbox.deployments.seedDeployments(3, { project: 'api', spacingMs: 0 });
    fx.clock.advance(1_000);
    fx.sandbox.deployments.seedDeployments(1, { project: 'api' });
    const ids = await apiIds(2, 10);
    expect(new Set(ids).size).toBe(ids.length);
    expect(fx.wire().length).toBeLessThan(10);
  });

  it('filters by state as the builds move on the clock', async () => {
    fx = await deploymentsFixture();
    await fx.invoke('deployments.create_deployment', { project: 'api', branch: 'main' });
    const building: CatalogInput<'deployments.list_deployments'> = {
      project: 'api',
      state: ['QUEUED', 'INITIALIZING', 'BUILDING'],
    };
    expect((await fx.invoke('deployments.list_deployments', building)).output.deployments).toHaveLength(1);
    fx.clock.advance(10 * 60_000);
    expect((await fx.invoke('deployments.list_deployments', building)).output.deployments).toHaveLength(0);
    const ready = await fx.invoke('deployments.list_deployments', { project: 'api', state: ['READY'] });
    expect(ready.output.deployments).toHaveLength(1);
  });

  it('waits for the rate-limit reset after a 429 and then succeeds', async () => {
    fx = await deploymentsFixture({ sandbox: { deployments: { requestsPerMinute: 10 } } });
    // Another client of the same account spends the quota: this connection's gate cannot know.
    const { limiter } = fx.sandbox.deployments;
    while (limiter.consume('user_ada').allowed);
    const resetAt = limiter.peek('user_ada').resetAt;

    const raw = await fetch(`${fx.sandbox.baseUrl('deployments')}/v6/deployments`, {
      headers: { authorization: `Bearer ${fx.token}` },
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(raw.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(resetAt / 1000)));
    expect(raw.headers.get('retry-after')).toBeNull();
    expect(await raw.json()).toMatchObject({ error: { code: 'rate_limited', limit: { remaining: 0 } } });

    fx.clearWire();
    const result = await fx.invoke('deployments.list_deployments', { project: 'web' });
    expect(result.output.deployments.length).toBeGreaterThan(0);
    expect(fx.wire()).toHaveLength(2);
    expect(result.meta).toMatchObject({ attempts: 2, retries: 1 });
    expect(result.meta.rateLimitWaits).toBeGreaterThanOrEqual(1);
    // The retry went out no earlier than the reset the provider announced, and without a real wait.
    expect(fx.clock.now()).toBeGreaterThanOrEqual(resetAt);
    expect(fx.clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThan(0);
  });

  it('gives up with rate_limited when the reset is further away than the caller may wait', async () => {
    fx = await deploymentsFixture({ runtime: { maxRateLimitWaitMs: 1_000, retry: { maxRetries: 1 } } });
    // Half way into a fresh one-minute window, spend it all: the reset is 30 s away.
    fx.clock.advance(60_000 - (fx.clock.now() % 60_000) + 30_000);
    const { limiter } = fx.sandbox.deployments;
    while (limiter.consume('user_ada').allowed);
    await expect(fx.invoke('deployments.list_deployments', { project: 'web' })).rejects.toMatchObject({
      code: 'rate_limited',
      retryable: true,
    });
    expect(fx.wire()).toHaveLength(1);
  });

  it('with project scoping, refuses a list without a project or for another project, with nothing sent', async () => {
    fx = await deploymentsFixture();
    const constraints = { projects: ['web'] };
    await fx.expectRefusedUnsent(
      { code: 'permission_denied' },
      () => fx.invoke('deployments.list_deployments', {}, { constraints }),
      () => fx.invoke('deployments.list_deployments', { project: 'api' }, { constraints }),
    );
    const page = await fx.invoke('deployments.list_deployments', { project: 'web' }, { constraints });
    expect(page.output.deployments.length).toBe(2);
  });

  it('refuses an unreadable cursor and an inverted time range before sending', async () => {
    fx = await deploymentsFixture();
    await fx.expectRefusedUnsent(
      { code: 'input_invalid' },
      () => fx.invoke('deployments.list_deployments', { cursor: 'abc' }),
      () => fx.invoke('deployments.list_deployments', { since: '2026-02-01', until: '2026-01-01' }),
    );
  });
});

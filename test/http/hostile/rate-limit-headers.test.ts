import { describe, expect, it } from 'vitest';
import { isToolstepsError } from '../../../src/errors/index.js';
import { answerJson, fetchUpstream } from '../../support/hostile-provider.js';
import { describeEveryTarget } from '../../support/hostile-targets.js';
import { everyView } from '../../support/secret-views.js';

/**
 * A provider whose Retry-After and rate-limit headers are absurd: they are
 * clamped, never obeyed unbounded, for every integration through a real step.
 */
describeEveryTarget((fx, target) => {
  const { invoke, runtime, registry } = fx;
  describe('3. what a provider returns is validated', () => {
    it('a Retry-After of -1 or 1e12 is not read as a date and never waits unbounded', async () => {
      for (const value of ['-1', '1000000000000']) {
        fx.hostile.script((_request, response) =>
          answerJson(response, 429, { error: 'slow down' }, { 'retry-after': value }),
        );
        const started = fx.clock.now();
        const error = await invoke(target.step).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'rate_limited' });
        expect(fx.clock.now() - started).toBeLessThanOrEqual(10 * 60_000);
      }
    });

    it('absurd rate-limit headers neither crash the step nor block the next call', async () => {
      const absurd = {
        'ratelimit-remaining': '0',
        'ratelimit-reset': '9000000000000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '9000000000000',
        'x-rate-limit-remaining': '0',
        'x-ratelimit-limit': '1',
        'ratelimit-limit': '1',
      };
      let answered = 0;
      fx.hostile.script(async (request, response) => {
        if (answered++ > 0) return false;
        const upstream = await fetchUpstream(new URL(fx.sandbox.url).origin, request);
        response
          .writeHead(upstream.status, { 'content-type': 'application/json', ...absurd })
          .end(await upstream.text());
        return true;
      });
      const shared = runtime();
      const first = await registry
        .invokeUnchecked(shared, target.step.id, { connection: fx.connection.id, input: target.step.input })
        .catch((caught: unknown) => caught);
      expect(everyView(first)).not.toMatch(/Invalid time value|internal_error/);
      const second = await registry
        .invokeUnchecked(shared, target.step.id, { connection: fx.connection.id, input: target.step.input })
        .catch((caught: unknown) => caught);
      expect(everyView(second)).not.toMatch(/Invalid time value|internal_error/);
      // A reset of 9e12 is clamped into the next day, not obeyed.
      if (isToolstepsError(second)) expect(second.retryAfterMs ?? 0).toBeLessThanOrEqual(24 * 3600_000);
      // Once the longest wait has passed, one request probes, and the honest answer corrects the state.
      fx.clock.advance(2 * 60_000);
      const third = await registry.invokeUnchecked(shared, target.step.id, {
        connection: fx.connection.id,
        input: target.step.input,
      });
      expect(third.output).toBeTruthy();
    });
  });
});

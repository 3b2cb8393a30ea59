import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isToolstepsError } from '../src/errors/index.js';
import type { RuntimeOptions } from '../src/runtime/runtime.js';
import { fetchUpstream, type SeenRequest } from './support/hostile-provider.js';
import { CALLER_HEADER, HOSTILE_RUNS, useHostileTarget } from './support/hostile-targets.js';
import { everyView, expectNoSecret } from './support/secret-views.js';

/**
 * Classes 3 (size cap, depth bound, rate-limit clamps) and 5 (redirects) of
 * issue 10, against every integration through a real step, beside the other
 * classes in hostile-provider.test.ts.
 */
for (const { target, transport, base } of HOSTILE_RUNS) {
  describe(`hostile provider: ${target.integration}${transport}`, () => {
    const fx = useHostileTarget(target, base);
    const { invoke, stepRequests, runtime, registry } = fx;
    describe('3. what a provider returns is validated', () => {
      it('a deeply nested answer is a typed error, not a stack overflow', async () => {
        fx.hostile.script((_request, response) => {
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(`{"items":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
          return true;
        });
        const error = await invoke(target.step).catch((caught: unknown) => caught);
        expect(isToolstepsError(error)).toBe(true);
      });

      it('a huge answer is refused with a typed error and fetched once', async () => {
        fx.hostile.script((_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(`{"items":"${'x'.repeat(3 * 1024 * 1024)}"}`);
          return true;
        });
        const before = stepRequests();
        const error = await invoke(target.step, { maxResponseBytes: 1024 * 1024 } as RuntimeOptions).catch(
          (caught: unknown) => caught,
        );
        expect(isToolstepsError(error)).toBe(true);
        expect(error).toMatchObject({ retryable: false });
        expect(stepRequests() - before).toBe(1);
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

    describe('5. redirects carry nothing of ours', () => {
      let elsewhere: http.Server;
      let seenElsewhere: SeenRequest[];
      beforeAll(async () => {
        seenElsewhere = [];
        elsewhere = http.createServer((request, response) => {
          seenElsewhere.push({
            method: request.method ?? '',
            path: request.url ?? '',
            headers: request.headers,
            body: '',
          });
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
        await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      });
      afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

      it('a redirect to data: is not followed: its payload never becomes the answer', async () => {
        fx.hostile.script((_request, response) => {
          response.writeHead(302, { location: 'data:application/json,{"planted":true}' }).end();
          return true;
        });
        const outcome = await invoke(target.apiCall ?? target.step).catch((caught: unknown) => caught);
        expect(everyView(outcome)).not.toContain('planted');
      });

      it('a cross-origin redirect carries no credential and no caller header', async () => {
        const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}/landed`;
        fx.hostile.script((_request, response) => {
          response.writeHead(302, { location: other }).end();
          return true;
        });
        await invoke(target.apiCall ?? target.step).catch((caught: unknown) => caught);
        expectNoSecret(everyView(seenElsewhere), [...fx.secrets, CALLER_HEADER]);
      });
    });
  });
}

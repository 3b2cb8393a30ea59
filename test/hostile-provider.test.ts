import { describe, expect, it } from 'vitest';
import { isToolstepsError } from '../src/errors/index.js';
import { answerJson, fetchUpstream, trickle } from './support/hostile-provider.js';
import { HOSTILE_RUNS, taint, useHostileTarget } from './support/hostile-targets.js';
import { everyView, expectNoSecret } from './support/secret-views.js';

/**
 * Classes 1-6 of issue 10, run against every integration through a real
 * step: a hostile provider (test/support/hostile-provider.ts) stands between
 * the step and the honest sandbox and, per test, answers in one hostile way.
 */

for (const { target, transport, base } of HOSTILE_RUNS) {
  describe(`hostile provider: ${target.integration}${transport}`, () => {
    const fx = useHostileTarget(target, base);
    const { invoke, stepRequests } = fx;
    it('runs the step honestly through the fx.hostile provider when it does nothing hostile', async () => {
      fx.hostile.script(() => false);
      const result = await invoke(target.step);
      expect(result.output).toBeTruthy();
    });

    describe('1. a secret never reaches output or an error', () => {
      it('an error text echoing every secret in the encodings we send is redacted', async () => {
        fx.hostile.script((_request, response) => {
          const echoes = fx.secrets
            .map((secret) => `Bearer ${secret} ${encodeURIComponent(secret)}`)
            .join(' ');
          response.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request: ${echoes}`);
          return true;
        });
        const error = await invoke(target.step).catch((caught: unknown) => caught);
        expect(isToolstepsError(error)).toBe(true);
        expectNoSecret(everyView(error), fx.secrets);
      });

      it('a secret straddling the cut of the provider message (300 characters) leaves no prefix', async () => {
        for (const secret of fx.secrets) {
          fx.hostile.script((_request, response) => {
            response.writeHead(400, { 'content-type': 'text/plain' }).end(`${'x'.repeat(292)}${secret} tail`);
            return true;
          });
          const error = await invoke(target.step).catch((caught: unknown) => caught);
          expect(isToolstepsError(error)).toBe(true);
          expectNoSecret(everyView(error), [secret]);
        }
      });

      it.runIf(target.apiCall)(
        'an answer that reflects the request back is redacted in the output',
        async () => {
          fx.hostile.script((request, response) =>
            answerJson(response, 200, { reflected: request.headers, path: request.path }),
          );
          const result = await invoke(target.apiCall!);
          expectNoSecret(everyView(result), fx.secrets);
        },
      );
    });

    describe('2. every wait has a deadline', () => {
      it('an answer trickled a byte at a time fails as a timeout', async () => {
        fx.hostile.script((_request, response) => {
          trickle(response, 200, `{"items": [${'1,'.repeat(200)}1]}`, 100);
          return true;
        });
        const error = await invoke(target.step, { requestTimeoutMs: 400 }).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'timeout' });
      }, 20_000);

      it('headers that never come fail as a timeout', async () => {
        fx.hostile.script(() => new Promise<boolean>(() => undefined));
        const error = await invoke(target.step, { requestTimeoutMs: 300 }).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'timeout' });
      }, 20_000);
    });

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
    });

    describe.runIf(target.idStep)('4. ids are path segments', () => {
      it('an id of ".." is refused before anything is sent', async () => {
        fx.hostile.script(() => false);
        const before = stepRequests();
        const error = await invoke(target.idStep!).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'input_invalid' });
        expect(stepRequests()).toBe(before);
      });
    });

    describe('6. expressions cannot stall the process', () => {
      it('a catastrophic regex over provider text in a variable mapping finishes', async () => {
        fx.hostile.script(async (request, response) => {
          const upstream = await fetchUpstream(new URL(fx.sandbox.url).origin, request);
          const text = await upstream.text();
          let body: unknown;
          try {
            body = taint(JSON.parse(text), target.textFields ?? ['name', 'subject', 'description']);
          } catch {
            body = text;
          }
          return answerJson(response, upstream.status, body);
        });
        const result = await invoke(
          target.step,
          {},
          { variables: { stalled: "$..[?search(@, '(a+)+!')]", tainted: "$..[?search(@, 'a{30}c')]" } },
        );
        expect(result.variables.stalled).toEqual([]);
        expect((result.variables.tainted as unknown[]).length).toBeGreaterThan(0);
      }, 20_000);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { isToolstepsError } from '../../../src/errors/index.js';
import { answerJson } from '../../support/hostile-provider.js';
import { describeEveryTarget } from '../../support/hostile-targets.js';
import { everyView, expectNoSecret } from '../../support/secret-views.js';

/**
 * A provider that echoes our secrets back, in an error or in an answer: run
 * against every integration through a real step, with a hostile provider
 * (test/support/hostile-provider.ts) between the step and the honest sandbox.
 */
describeEveryTarget((fx, target) => {
  const { invoke } = fx;
  describe('1. a secret never reaches output or an error', () => {
    it('an error text echoing every secret in the encodings we send is redacted', async () => {
      fx.hostile.script((_request, response) => {
        const echoes = fx.secrets.map((secret) => `Bearer ${secret} ${encodeURIComponent(secret)}`).join(' ');
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
});

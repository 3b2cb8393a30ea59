import { describe, expect, it } from 'vitest';
import { isToolstepsError } from '../../../src/errors/index.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime.js';
import { describeEveryTarget } from '../../support/hostile-targets.js';

/**
 * A provider that answers too much: a huge body or JSON nested past any real
 * answer is a typed error, for every integration through a real step.
 */
describeEveryTarget((fx, target) => {
  const { invoke, stepRequests } = fx;
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
  });
});

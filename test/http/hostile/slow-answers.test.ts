import { describe, expect, it } from 'vitest';
import { trickle } from '../../support/hostile-provider.js';
import { describeEveryTarget } from '../../support/hostile-targets.js';

/**
 * A provider that answers slowly, a byte at a time or not at all: every wait
 * has a deadline, for every integration through a real step.
 */
describeEveryTarget((fx, target) => {
  const { invoke } = fx;
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
});

import { describe, expect, it } from 'vitest';
import { describeEveryTarget } from '../../support/hostile-targets.js';

/**
 * What the hostile provider gets to see: an honest step passes through it, and
 * an id of ".." never leaves the step, for every integration.
 */
describeEveryTarget((fx, target) => {
  const { invoke, stepRequests } = fx;
  it('runs the step honestly through the fx.hostile provider when it does nothing hostile', async () => {
    fx.hostile.script(() => false);
    const result = await invoke(target.step);
    expect(result.output).toBeTruthy();
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
});

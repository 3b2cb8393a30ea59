import { describe, expect, it } from 'vitest';
import { answerJson, fetchUpstream } from '../../support/hostile-provider.js';
import { describeEveryTarget, taint } from '../../support/hostile-targets.js';

/**
 * Provider text shaped to stall a backtracking regex in a variable mapping:
 * the expression still finishes, for every integration through a real step.
 */
describeEveryTarget((fx, target) => {
  const { invoke } = fx;
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

import * as z from 'zod';
import type { EvalAgent, EvalSession } from './eval-agent.js';

/** What an earlier call of the script came to: the tool's JSON (`{output, ...}` or `{error}`). */
export type ScriptedResult = Record<string, unknown>;

/** One call of a script: a step, its input (fixed, or made from the earlier results), and how often to resend it after an error. */
export interface ScriptedCall {
  step: string;
  input: unknown | ((earlier: readonly ScriptedResult[], session: EvalSession) => unknown);
  /** Resend the same input this many times while it answers an error (what a naive agent does). */
  retriesOnError?: number;
  /** When given, the call is made only if this says so. */
  when?: (earlier: readonly ScriptedResult[]) => boolean;
}

/**
 * A scripted agent: a fixed list of step calls, each input fixed or computed
 * from what earlier calls answered (a small policy). For tests, for checking
 * a scenario itself (a script written to pass must pass), and for the
 * mistakes a model makes (a script written to fail must fail, for the right reason).
 */
export function scriptedAgent(name: string, calls: readonly ScriptedCall[]): EvalAgent {
  return {
    name,
    async run(session) {
      const results: ScriptedResult[] = [];
      for (const call of calls) {
        if (call.when && !call.when(results)) continue;
        const input = typeof call.input === 'function' ? call.input(results, session) : call.input;
        let result = await session.callStep(call.step, input);
        for (let retry = 0; retry < (call.retriesOnError ?? 0) && 'error' in result; retry += 1) {
          result = await session.callStep(call.step, input);
        }
        results.push(result);
      }
      return { text: `Ran ${results.length} scripted call(s).` };
    },
  };
}

/** A scripted agent as a file (YAML or JSON): fixed calls only. */
export const ScriptFile = z.strictObject({
  name: z.string().min(1),
  calls: z.array(
    z.strictObject({
      step: z.string().min(1),
      input: z.record(z.string(), z.unknown()).default({}),
      retries_on_error: z.number().int().min(0).max(10).default(0),
    }),
  ),
});

export function scriptedAgentOf(script: z.infer<typeof ScriptFile>): EvalAgent {
  return scriptedAgent(
    script.name,
    script.calls.map((call) => ({
      step: call.step,
      input: call.input,
      retriesOnError: call.retries_on_error,
    })),
  );
}

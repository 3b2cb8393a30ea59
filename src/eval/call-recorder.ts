import { InputError, isToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { InvocationResult, InvokeOptions } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import type { FaultSchedule } from './fault-arming.js';
import type { RecordedCall } from './recorded-call.js';
import type { TwinClient } from './twin-client.js';

/**
 * Records every step call of one run, arming the scenario's faults at their
 * moments first. It wraps the invocation pipeline itself (the runtime's
 * `invoke`, see RecordingRuntime), so every way an agent reaches a step
 * (flat tools, the catalogue's run_step, any SDK adapter) is recorded the
 * same way, with what the pipeline knows: attempts, retries, credits, replay.
 */
export class CallRecorder {
  readonly calls: RecordedCall[] = [];
  private readonly startedAt: number;

  constructor(
    private readonly twins: TwinClient,
    private readonly faults: FaultSchedule,
    private readonly clock: Clock,
    /** The harness's own ceiling: past it, calls are refused without reaching the twins. */
    private readonly maxCalls: number,
  ) {
    this.startedAt = clock.now();
  }

  async record<Output>(
    step: AnyStep,
    options: InvokeOptions,
    invoke: () => Promise<InvocationResult<Output>>,
  ): Promise<InvocationResult<Output>> {
    const index = this.calls.length + 1;
    if (index > this.maxCalls) {
      throw new InputError(`The evaluation allows at most ${this.maxCalls} tool calls; stop and answer.`, [
        { path: '(call)', message: 'call limit reached' },
      ]);
    }
    const faults = await this.faults.before(this.twins, index, step.id);
    const startedMs = this.clock.now() - this.startedAt;
    const call: RecordedCall = {
      index,
      step: step.id,
      access: step.access,
      input: options.input,
      ok: false,
      attempts: null,
      retries: null,
      recovered: false,
      credits: 0,
      startedMs,
      durationMs: 0,
      faults,
    };
    this.calls.push(call);
    try {
      const result = await invoke();
      call.ok = true;
      call.output = result.output;
      call.attempts = result.meta.attempts;
      call.retries = result.meta.retries;
      call.recovered = result.meta.replay !== undefined;
      call.credits = result.meta.credits?.charged ?? 0;
      return result;
    } catch (error) {
      call.error = errorOf(error);
      if (isToolstepsError(error)) call.credits = error.credits?.charged ?? 0;
      throw error;
    } finally {
      call.durationMs = this.clock.now() - this.startedAt - startedMs;
    }
  }
}

function errorOf(error: unknown): NonNullable<RecordedCall['error']> {
  if (isToolstepsError(error)) {
    return {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      outcome: error.outcome ?? null,
    };
  }
  return {
    code: 'internal_error',
    message: error instanceof Error ? error.message : String(error),
    retryable: false,
    outcome: null,
  };
}

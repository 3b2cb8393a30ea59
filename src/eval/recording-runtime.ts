import {
  type InvocationResult,
  type InvokeOptions,
  Runtime,
  type RuntimeOptions,
} from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import type { CallRecorder } from './call-recorder.js';

/**
 * A Runtime whose every invocation goes through a CallRecorder: the one
 * place every agent surface meets, so nothing an agent does escapes the
 * trajectory. The pipeline itself is the real one, untouched.
 */
export class RecordingRuntime extends Runtime {
  constructor(
    options: RuntimeOptions,
    private readonly recorder: CallRecorder,
  ) {
    super(options);
  }

  override invoke<Output = unknown>(
    step: AnyStep,
    options: InvokeOptions,
  ): Promise<InvocationResult<Output>> {
    return this.recorder.record(step, options, () => super.invoke<Output>(step, options));
  }
}

import { isToolstepsError } from '../errors/index.js';
import type { AnyStep } from '../step/define-step.js';
import type { StepRunRecord } from '../store/audit/audit-trail.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';
import type { RuntimeSettings } from './runtime-options.js';

/** A caller label is a name, not a place for data: long ones are cut. */
const MAX_CALLER_LENGTH = 128;

/**
 * Runs a write or destructive step and appends its audit record to the
 * tenant's trail: when, which step, which connection, who called, how it
 * ended and the error's code. Never the input, the output or an error's
 * message (either may quote what the caller sent). Reads are not recorded.
 *
 * An append that fails never costs the caller the run's outcome: the result
 * is returned with `meta.audit: 'failed'` and the error is thrown as it
 * was; `onAuditFailure` (default: a warning in the log) hears why.
 */
export async function auditRun<Output>(
  settings: RuntimeSettings,
  step: AnyStep,
  options: InvokeOptions,
  run: () => Promise<InvocationResult<Output>>,
): Promise<InvocationResult<Output>> {
  const trail = settings.audit;
  if (!trail || step.access === 'read') return run();
  const connection = typeof options.connection === 'string' ? options.connection : options.connection.id;
  const record = (outcome: 'ok' | 'error', errorCode?: string): StepRunRecord => ({
    at: new Date(settings.clock.now()).toISOString(),
    step: step.id,
    access: step.access as 'write' | 'destructive',
    connection,
    caller: (options.caller ?? settings.caller).slice(0, MAX_CALLER_LENGTH),
    ...(options.test ? { test: true } : {}),
    outcome,
    ...(errorCode === undefined ? {} : { error_code: errorCode }),
  });
  const append = async (entry: StepRunRecord): Promise<boolean> => {
    try {
      await trail.append(entry);
      return true;
    } catch (error) {
      const report =
        settings.onAuditFailure ??
        ((failure: unknown) =>
          settings.logger.warn('could not append the audit record of a step run', {
            step: entry.step,
            connection: entry.connection,
            outcome: entry.outcome,
            error: isToolstepsError(failure) ? failure.code : (failure as Error)?.name,
          }));
      report(error, entry);
      return false;
    }
  };
  let result: InvocationResult<Output>;
  try {
    result = await run();
  } catch (error) {
    await append(record('error', isToolstepsError(error) ? error.code : 'internal_error'));
    throw error;
  }
  const recorded = await append(record('ok'));
  return { ...result, meta: { ...result.meta, audit: recorded ? 'recorded' : 'failed' } };
}

import type { Span } from '@opentelemetry/api';
import { isToolstepsError } from '../errors/index.js';
import type { TenantId } from '../model/tenant-id.js';
import type { AnyStep } from '../step/define-step.js';
import {
  errorType,
  inSpan,
  instruments,
  type SafeAttributes,
  safeAttributes,
  setSafeAttributes,
  telemetryRegistered,
} from '../telemetry/index.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';

/**
 * One invocation as the GenAI conventions' `execute_tool` span (INTERNAL,
 * under whatever span is active: an agent runtime's tool call, an MCP
 * request, the embedder's own), with toolsteps' attributes, and its metrics:
 * invocations by step, integration, outcome and error code; its duration;
 * credits spent per tenant. With no SDK registered it runs `work` as it is.
 */
export function observedInvocation<Output>(
  tenant: TenantId,
  step: AnyStep,
  options: InvokeOptions,
  work: () => Promise<InvocationResult<Output>>,
): Promise<InvocationResult<Output>> {
  if (!telemetryRegistered()) return work();
  const attributes: SafeAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': step.id,
    'gen_ai.tool.type': 'function',
    'gen_ai.tool.call.id': options.toolCallId,
    'toolsteps.step.id': step.id,
    'toolsteps.integration': step.integration.id,
    'toolsteps.tenant.id': tenant,
    'toolsteps.connection.id':
      typeof options.connection === 'string' ? options.connection : options.connection.id,
    'toolsteps.access': step.access,
  };
  return inSpan(`execute_tool ${step.id}`, { kind: 'internal', attributes }, async (span) => {
    const started = performance.now();
    try {
      const result = await work();
      if (span) setSafeAttributes(span, succeeded(result));
      record(tenant, step, started, result, undefined);
      return result;
    } catch (error) {
      if (span) failed(span, error);
      record(tenant, step, started, undefined, error);
      throw error;
    }
  });
}

function succeeded(result: InvocationResult<unknown>): SafeAttributes {
  const { meta } = result;
  return {
    'toolsteps.outcome': 'ok',
    'toolsteps.attempts': meta.attempts,
    'toolsteps.retries': meta.retries,
    'toolsteps.credits': meta.credits?.charged ?? undefined,
    'toolsteps.replay.decision':
      meta.replay?.decision ?? (meta.fromIdempotencyRecord ? 'recorded' : undefined),
  };
}

function failed(span: Span, error: unknown): void {
  setSafeAttributes(span, {
    'toolsteps.outcome': 'failed',
    'toolsteps.error.code': isToolstepsError(error) ? error.code : undefined,
  });
}

/** The invocation's metrics; `inSpan` has loaded the API by now when any SDK is registered. */
function record(
  tenant: TenantId,
  step: AnyStep,
  started: number,
  result: InvocationResult<unknown> | undefined,
  error: unknown,
): void {
  const meters = instruments();
  if (!meters) return;
  const outcome = result ? 'ok' : 'failed';
  const labels = { 'toolsteps.step.id': step.id, 'toolsteps.integration': step.integration.id };
  meters.invocations.add(
    1,
    safeAttributes({
      ...labels,
      'toolsteps.outcome': outcome,
      'toolsteps.error.code': result ? undefined : errorType(error),
    }),
  );
  meters.invocationDuration.record(
    (performance.now() - started) / 1000,
    safeAttributes({ ...labels, 'toolsteps.outcome': outcome }),
  );
  const charged = result?.meta.credits?.charged;
  if (charged) {
    meters.creditsSpent.add(charged, safeAttributes({ ...labels, 'toolsteps.tenant.id': tenant }));
  }
}

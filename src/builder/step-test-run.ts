import type * as z from 'zod';
import type { RouteHandler } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';
import type { TestRunRequest } from './api-schemas.js';
import { fillPlaceholders } from './fill-placeholders.js';
import { requireConnection, requireWritable } from './tenant-guards.js';

/**
 * A test run of a draft configuration: placeholders filled from the
 * samples, the step run once through the one invocation pipeline, and the
 * output mapped with the draft's mapping. A write or destructive step
 * really acts at the provider, so it runs only with `confirmWrite`; without
 * it nothing is sent. The run is logged as a test.
 */
export const testStep: RouteHandler = async (call) => {
  const request = call.body as z.output<typeof TestRunRequest>;
  const step = call.server.options.registry.requireStep(call.params.stepId!);
  const connection = await requireConnection(call, request.connection);
  if (step.access !== 'read') {
    requireWritable(call);
    if (!request.confirmWrite) {
      throw new ApiRefusal(
        400,
        'confirmation_required',
        `${step.title} is a ${step.access} step: a test run really ${step.access === 'write' ? 'creates or changes' : 'deletes'} at the provider. Send confirmWrite: true to run it.`,
        [{ path: 'confirmWrite', message: 'must be true for a write step' }],
      );
    }
  }
  const input = fillPlaceholders(request.input, request.samples);
  const { runtime } = call.tenant;
  runtime.logger.info('builder test run', {
    test: true,
    tenant: call.tenant.tenant,
    token: call.claims.tokenId,
    step: step.id,
    connection: connection.id,
  });
  const result = await call.server.options.registry.invokeUnchecked(runtime, step.id, {
    connection: connection.id,
    input,
    variables: request.mapping,
    replaceVariables: request.replaceVariables,
    // The audit trail names the page's token and marks the run as a test.
    caller: call.claims.tokenId,
    test: true,
  });
  return { test: true, input, output: result.output, variables: result.variables, meta: result.meta };
};

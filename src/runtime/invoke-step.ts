import { noteUse } from '../connection/note-use.js';
import type { TokenRefresher } from '../connection/token-refresher.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, onceByKey } from '../coordination/idempotency-record.js';
import { mentionsSecret, redactSecrets } from '../errors/index.js';
import { lastRateLimit } from '../http/exchange.js';
import { fileFetcher } from '../http/fetch-file.js';
import type { InvocationClient } from '../http/http-client.js';
import { toPublicConnection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { AnyStep, CreditEstimate } from '../step/define-step.js';
import { withAuthHint } from './auth-hint.js';
import { type BoundConnection, bindConnection } from './bind-connection.js';
import { checkBudget } from './check-budget.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';
import { mapVariables } from './map-variables.js';
import type { PreparedConnections } from './prepared-connections.js';
import { creditsSpent, type RunContext, runStep, type StepRun } from './run-step.js';
import type { RuntimeSettings } from './runtime-options.js';
import { type CreditReservation, creditsToKeep, reserveSharedCredits } from './shared-credit-budget.js';
import { type LimitsReader, takeTenantShare } from './tenant-share.js';
import { validateInput } from './validate-input.js';
import { validateOutput } from './validate-output.js';

/** What an invocation needs of the runtime that runs it. */
export interface InvocationContext {
  settings: RuntimeSettings;
  refresher: TokenRefresher;
  /** The coordinator of shared rules: the configured one, else the process's own. */
  coordinator(): Coordinator;
  /** What invocations on one connection share, prepared once per version of its record. */
  prepared: PreparedConnections;
  /** The tenant's fair-share limits. */
  limits: LimitsReader;
}

/**
 * validateInput -> checkBudget -> bindConnection -> runStep -> validateOutput
 * -> mapVariables, each a function of its own in `runtime/`; with an
 * idempotency key, once per key across every worker sharing the coordinator.
 */
export async function invokeStep<Output>(
  context: InvocationContext,
  step: AnyStep,
  options: InvokeOptions,
): Promise<InvocationResult<Output>> {
  if (options.idempotencyKey === undefined) return invokeOnce<Output>(context, step, options);
  const { result, recorded } = await onceByKey(
    context.coordinator(),
    `${step.id}:${options.idempotencyKey}`,
    options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
    () => invokeOnce<Output>(context, step, options),
    context.settings.logger,
  );
  return recorded ? { ...result, meta: { ...result.meta, fromIdempotencyRecord: true } } : result;
}

async function invokeOnce<Output>(
  context: InvocationContext,
  step: AnyStep,
  options: InvokeOptions,
): Promise<InvocationResult<Output>> {
  const validated = validateInput(step, options);
  const estimate = checkBudget(step, validated.input, options.creditBudget);
  // Nothing to reserve (a free step, no tenant limits): no reservation to settle either.
  if (!estimate && !context.limits.configured)
    return bindAndRun<Output>(context, step, options, validated, estimate);
  const { logger } = context.settings;
  const held: CreditReservation[] = [];
  // Only a paid step holds a reservation: its estimate is defined whenever one is held.
  const settle = async (spent: () => number) => {
    if (held.length) await Promise.all(held.map((reservation) => reservation.settle(spent())));
  };
  try {
    const share = await takeTenantShare(context.coordinator(), context.limits, step, estimate, logger);
    if (share) held.push(share);
    const shared = await reserveSharedCredits(
      context.coordinator(),
      step,
      estimate,
      options.sharedCreditBudget,
      logger,
    );
    if (shared) held.push(shared);
    const result = await bindAndRun<Output>(context, step, options, validated, estimate);
    await settle(() => creditsToKeep(estimate as CreditEstimate, result.meta.credits?.charged ?? null));
    return result;
  } catch (error) {
    await settle(() => creditsToKeep(estimate as CreditEstimate, null, error));
    throw error;
  }
}

/** Takes nothing of a progress report: for a caller that asked for none. */
const noProgress = () => {};

/** What a step handler gets beside its HTTP client: the runtime's logger and clock, the caller's signal and constraints. */
function runContext(
  context: InvocationContext,
  options: InvokeOptions,
  bound: BoundConnection,
  http: InvocationClient,
): RunContext {
  const { clock, logger, requestTimeoutMs, transport } = context.settings;
  const { signal } = options;
  return {
    http,
    connection: toPublicConnection(bound.credentials.current()),
    signal,
    log: logger,
    progress: options.onProgress ?? noProgress,
    sleep: (ms) => clock.sleep(ms, signal),
    constraints: options.constraints ?? {},
    // Made when a step first fetches a file: nearly none does.
    fetchFile: (url, fileOptions) =>
      fileFetcher({
        wire: transport.wire,
        clock,
        logger,
        signal,
        // Nothing of the connection goes with it; its secrets are still kept out of any message.
        redact: (text) => redactSecrets(text, bound.secrets()),
        timeoutMs: requestTimeoutMs,
      })(url, fileOptions),
  };
}

/**
 * bindConnection -> runStep -> validateOutput -> mapVariables, called plainly
 * in one function: the transport the step's client sends on was prepared
 * for its connection (runtime/prepared-connections.ts), and binding it to
 * this invocation composes nothing.
 */
async function bindAndRun<Output>(
  context: InvocationContext,
  step: AnyStep,
  options: InvokeOptions,
  { input, mapping }: ReturnType<typeof validateInput>,
  estimate: CreditEstimate | undefined,
): Promise<InvocationResult<Output>> {
  const { clock, store } = context.settings;
  const started = clock.now();
  const integration = step.integration as Integration;
  let bound: BoundConnection;
  let run: StepRun;
  let http: InvocationClient;
  try {
    bound = await bindConnection(step, options.connection, {
      store,
      refresher: context.refresher,
      prepared: context.prepared,
    });
    http = bound.prepared.transport(step.idempotent).bind({
      credentials: bound.credentials,
      signal: options.signal,
      secrets: bound.secrets,
    });
    run = await runStep(step, input, runContext(context, options, bound, http), {
      estimate,
      secrets: bound.secrets,
    });
  } catch (error) {
    throw withAuthHint(integration, error);
  }
  const { raw, charged, replay } = run;
  const connection = bound.credentials.current();
  await noteUse(store, connection, clock.now());
  const stats = http.spent;
  const secrets = bound.secrets();
  // A secret can reach the output only through an answer that quoted it or an input that held it.
  const mayHoldSecret =
    stats.secretEchoes > 0 || (secrets.length > 0 && mentionsSecret(JSON.stringify(input) ?? '', secrets));
  const credits = creditsSpent(estimate, charged);
  const output = validateOutput(step, raw, { secrets, redact: mayHoldSecret, credits }) as Output;
  return {
    output,
    variables: mapVariables(output, mapping),
    meta: {
      step: step.id,
      connection: connection.id,
      attempts: stats.attempts,
      retries: stats.retries,
      durationMs: clock.now() - started,
      credits,
      rateLimit: lastRateLimit(stats),
      rateLimitWaits: stats.rateLimitWaits,
      ...(replay ? { replay } : {}),
    },
  };
}

import { noteUse } from '../connection/note-use.js';
import type { TokenRefresher } from '../connection/token-refresher.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, onceByKey } from '../coordination/idempotency-record.js';
import { mentionsSecret, redactSecrets } from '../errors/index.js';
import { addStats, lastRateLimit, NO_STATS, type RequestStats } from '../http/exchange.js';
import { fileFetcher } from '../http/fetch-file.js';
import { createHttpClient } from '../http/http-client.js';
import { toPublicConnection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Gate } from '../model/rate-limit.js';
import type { AnyStep, CreditEstimate } from '../step/define-step.js';
import { withAuthHint } from './auth-hint.js';
import { type BoundConnection, bindConnection } from './bind-connection.js';
import { checkBudget } from './check-budget.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';
import { mapVariables } from './map-variables.js';
import { creditsSpent, runStep } from './run-step.js';
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
  /** The rate gate of one connection. */
  gateFor(connectionId: string): Gate;
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

/** The HTTP client of one invocation, bound to its connection; `spent` hears what each request cost. */
function stepHttpClient(
  context: InvocationContext,
  step: AnyStep,
  bound: BoundConnection,
  signal: AbortSignal | undefined,
  spent: RequestStats[],
) {
  const { settings } = context;
  const integration = step.integration as Integration;
  const connection = bound.credentials.current();
  return createHttpClient({
    integration,
    baseUrl: bound.baseUrl,
    defaultQuery: integration.defaultQuery?.(connection.fields as never) ?? {},
    credentials: bound.credentials,
    secrets: bound.secrets,
    wire: settings.transport.wire,
    clock: settings.clock,
    gate: context.gateFor(connection.id),
    retry: settings.retry,
    logger: settings.logger,
    signal,
    stepIdempotent: step.idempotent,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    onStats: (stats) => spent.push(stats),
  });
}

async function bindAndRun<Output>(
  context: InvocationContext,
  step: AnyStep,
  options: InvokeOptions,
  { input, mapping }: ReturnType<typeof validateInput>,
  estimate: CreditEstimate | undefined,
): Promise<InvocationResult<Output>> {
  const { clock, logger, store } = context.settings;
  const started = clock.now();
  const integration = step.integration as Integration;
  const bound = await withAuthHint(integration, () =>
    bindConnection(step, options.connection, { store, refresher: context.refresher }),
  );
  const spent: RequestStats[] = [];
  const { raw, charged, replay } = await withAuthHint(integration, () =>
    runStep(
      step,
      input,
      {
        http: stepHttpClient(context, step, bound, options.signal, spent),
        connection: toPublicConnection(bound.credentials.current()),
        signal: options.signal,
        log: logger,
        progress: (done, total, records) => options.onProgress?.(done, total, records),
        sleep: (ms) => clock.sleep(ms, options.signal),
        constraints: options.constraints ?? {},
        fetchFile: fileFetcher({
          wire: context.settings.transport.wire,
          clock,
          logger,
          signal: options.signal,
          // Nothing of the connection goes with it; its secrets are still kept out of any message.
          redact: (text) => redactSecrets(text, bound.secrets()),
          timeoutMs: context.settings.requestTimeoutMs,
        }),
      },
      { estimate, secrets: bound.secrets },
    ),
  );
  await noteUse(store, bound.credentials.current(), clock.now());
  const stats = spent.reduce(addStats, NO_STATS);
  const secrets = bound.secrets();
  // A secret can reach the output only through an answer that quoted it or an input that held it.
  const mayHoldSecret = stats.secretEchoes > 0 || mentionsSecret(JSON.stringify(input) ?? '', secrets);
  const output = validateOutput(step, raw, {
    secrets,
    redact: mayHoldSecret,
    credits: creditsSpent(estimate, charged),
  }) as Output;
  return {
    output,
    variables: mapVariables(output, mapping),
    meta: {
      step: step.id,
      connection: bound.credentials.current().id,
      attempts: stats.attempts,
      retries: stats.retries,
      durationMs: clock.now() - started,
      credits: creditsSpent(estimate, charged),
      rateLimit: lastRateLimit(stats),
      rateLimitWaits: stats.rateLimitWaits,
      ...(replay ? { replay } : {}),
    },
  };
}

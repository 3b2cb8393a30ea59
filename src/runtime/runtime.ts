import type { Dispatcher } from 'undici';
import { TokenRefresher } from '../connection/token-refresher.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { LocalCoordinator } from '../coordination/local-coordinator.js';
import { SharedRateGate } from '../coordination/shared-rate-gate.js';
import { RateGate } from '../http/rate-gate.js';
import type { Clock } from '../model/clock.js';
import type { Logger } from '../model/logger.js';
import type { Gate } from '../model/rate-limit.js';
import type { TenantId } from '../model/tenant-id.js';
import type { AnyStep } from '../step/define-step.js';
import { auditedWrite, type WriteEntry } from '../store/audit/audited-write.js';
import type { ConnectionStore } from '../store/connection-store.js';
import type { TenantScopedStores } from '../store/tenant-stores.js';
import { telemetryRegistered, tracedLogger } from '../telemetry/index.js';
import { getOrCreate } from '../values/get-or-create.js';
import { genericInput } from './account-input.js';
import { AnswerCache } from './answer-cache.js';
import { auditRun } from './audit-run.js';
import type { InvocationResult, InvokeOptions } from './invocation.js';
import { observedInvocation } from './invocation-telemetry.js';
import { type InvocationContext, invokeStep } from './invoke-step.js';
import { PreparedConnections } from './prepared-connections.js';
import { type RuntimeOptions, type RuntimeSettings, settleOptions } from './runtime-options.js';
import { LimitsReader } from './tenant-share.js';

export type { InvocationMeta, InvocationResult, InvokeOptions } from './invocation.js';
export type { RuntimeOptions } from './runtime-options.js';
export type { Transport } from './transport-option.js';

/**
 * The invocation pipeline, the same for the library, the CLI and the demo:
 * validate input -> bind connection (refresh if near expiry) -> run ->
 * validate output -> map variables (runtime/invoke-step.ts). A runtime holds
 * what invocations share: the store, the transport, the token refresher and
 * one rate gate per connection.
 */
export class Runtime {
  /** The tenant whose records this runtime reaches, and no other's (`RuntimeOptions.tenant`). */
  readonly tenant: TenantId;
  /** That tenant's connections and subscriptions, when the runtime was given `tenantStores`. */
  readonly stores: TenantScopedStores | undefined;
  readonly store: ConnectionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly refresher: TokenRefresher;
  readonly coordination: Coordinator | undefined;
  /** Options pages and per-account schemas, kept a short time (src/options/). */
  readonly answers: AnswerCache;
  private readonly settings: RuntimeSettings;
  private readonly gates = new Map<string, Gate>();
  private localCoordination: Coordinator | undefined;
  private readonly context: InvocationContext;

  constructor(options: RuntimeOptions = {}) {
    const settled = settleOptions(options);
    // Lines written inside an invocation's span carry its trace and span ids.
    const settings = { ...settled, logger: tracedLogger(settled.logger) };
    this.settings = settings;
    this.tenant = settings.tenant;
    this.stores = settings.stores;
    this.store = settings.store;
    this.clock = settings.clock;
    this.logger = settings.logger;
    this.coordination = settings.coordination;
    this.answers = new AnswerCache(this.clock);
    this.refresher = new TokenRefresher({
      store: this.store,
      clock: this.clock,
      ...settings.transport.tokens,
      logger: this.logger,
      marginMs: settings.refreshMarginMs,
      timeoutMs: settings.requestTimeoutMs,
      refreshTokenLifetimes: settings.refreshTokenLifetimes ?? {},
    });
    this.context = {
      settings,
      refresher: this.refresher,
      coordinator: () => this.coordinator,
      prepared: new PreparedConnections(settings, (connectionId) => this.gateFor(connectionId)),
      limits: new LimitsReader(settings.limits, this.clock),
    };
  }

  /** The fetch of OAuth token requests (the given one with `transport: { fetch }`, else the global one). */
  get fetch(): typeof globalThis.fetch {
    return this.settings.transport.tokens.fetch;
  }

  /** The dispatcher of OAuth token requests; undefined means fetch's own. */
  get httpDispatcher(): Dispatcher | undefined {
    return this.settings.transport.tokens.dispatcher;
  }

  /**
   * The rate gate of one connection: shared by every invocation that uses
   * it, and with a shared coordinator by every worker.
   */
  gateFor(connectionId: string): Gate {
    return getOrCreate(this.gates, connectionId, () => {
      const limits = { clock: this.clock, maxWaitMs: this.settings.maxRateLimitWaitMs, logger: this.logger };
      return this.coordination?.mode === 'redis'
        ? new SharedRateGate(this.coordination, `connection:${connectionId}`, limits)
        : new RateGate(limits);
    });
  }

  /**
   * Runs one step against a connection, stage by stage (runtime/invoke-step.ts);
   * a write or destructive one is recorded in the tenant's audit trail.
   * An input that names the account's own fields (custom fields) is checked
   * against them and mapped to the step's generic input first. With an
   * OpenTelemetry SDK registered, the invocation is one `execute_tool` span
   * under the caller's active span (docs/observability.md).
   */
  invoke<Output = unknown>(step: AnyStep, options: InvokeOptions): Promise<InvocationResult<Output>> {
    // A read without an SDK registered is neither traced nor audited: called plainly, no wrapper in the way.
    if (!telemetryRegistered() && (step.access === 'read' || !this.settings.audit)) {
      return this.invokeGeneric<Output>(step, options);
    }
    return observedInvocation(this.tenant, step, options, () =>
      auditRun<Output>(this.settings, step, options, () => this.invokeGeneric<Output>(step, options)),
    );
  }

  /** The invocation with an input in the account's own field names mapped to the step's generic one first. */
  private async invokeGeneric<Output>(
    step: AnyStep,
    options: InvokeOptions,
  ): Promise<InvocationResult<Output>> {
    const input = step.accountSchema
      ? await genericInput(this, step, options.connection, options.input, options.signal)
      : options.input;
    const invocation = input === options.input ? options : { ...options, input };
    return invokeStep<Output>(this.context, step, invocation);
  }

  /**
   * Runs one write to the tenant's stores (a connection stored or removed, a
   * subscription made, switched or removed) and records it in the tenant's
   * audit trail, naming whoever asked: `entry.caller`, else this runtime's.
   */
  recordWrite<T>(
    entry: Omit<WriteEntry, 'caller'> & { caller?: string | undefined },
    work: () => Promise<T>,
  ) {
    const caller = entry.caller ?? this.settings.caller;
    const onFailure = (error: unknown, record: { action: string; target: string }) =>
      this.logger.warn('could not append the audit record of a write', {
        action: record.action,
        target: record.target,
        error: (error as Error)?.name,
      });
    return auditedWrite(
      { trail: this.settings.audit, now: () => this.clock.now(), onFailure },
      { ...entry, caller },
      work,
    );
  }

  /** The coordinator of shared rules: the configured one, else this process's own. */
  private get coordinator(): Coordinator {
    this.localCoordination ??= this.coordination ?? new LocalCoordinator();
    return this.localCoordination;
  }
}

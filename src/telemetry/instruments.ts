import type { Counter, Gauge, Histogram, Meter, MeterProvider, ObservableGauge } from '@opentelemetry/api';
import { INSTRUMENTATION_NAME, instrumentationVersion } from './instrumentation-scope.js';
import { metricsRegistered, otelApiIfLoaded } from './load-otel.js';

/**
 * Every metric toolsteps records, created once per meter provider. Their
 * attributes go through safe-attributes.ts like a span's; the table of
 * names, units and attributes is in docs/observability.md.
 */
export interface Instruments {
  /** Invocations, by step, integration, outcome and error code. */
  invocations: Counter;
  /** How long an invocation took, start to result (seconds). */
  invocationDuration: Histogram;
  /** How long one provider request took, each attempt apart (seconds), by integration, method, template and status. */
  providerRequestDuration: Histogram;
  /** Attempts sent again after a failure, by integration and reason. */
  retries: Counter;
  /** Times the rate gate held a request back, by integration and reason (quota, rate limit). */
  rateLimitWaits: Counter;
  /** Time spent held back by the rate gate or a provider's Retry-After (seconds). */
  rateLimitWaitTime: Counter;
  /** Requests left in the provider's window, per connection, as its last answer said. */
  quotaRemaining: Gauge;
  /** Paid credits spent, per tenant, integration and step. */
  creditsSpent: Counter;
  /** Token refreshes, by integration and result (done, refused, failed). */
  tokenRefreshes: Counter;
  /** Webhook deliveries by trigger and decision (started, duplicate, refused) and the refusal's reason. */
  webhookDeliveries: Counter;
  /** Events waiting in the event queue, read from Redis when the meter reader collects. */
  queueDepth: ObservableGauge;
  /** Events the queue gave up on (dead letters). */
  deadLetters: Counter;
  /** Builder API requests, by route and status. */
  builderRequests: Counter;
  /** How long a builder API request took (seconds), by route and status. */
  builderRequestDuration: Histogram;
}

/** What an observable instrument's callback reports into. */
export type { ObservableResult } from '@opentelemetry/api';

const SECONDS_BOUNDARIES = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function createInstruments(meter: Meter): Instruments {
  const seconds = { unit: 's', advice: { explicitBucketBoundaries: SECONDS_BOUNDARIES } };
  return {
    invocations: meter.createCounter('toolsteps.invocations', { unit: '{invocation}' }),
    invocationDuration: meter.createHistogram('toolsteps.invocation.duration', seconds),
    providerRequestDuration: meter.createHistogram('toolsteps.provider.request.duration', seconds),
    retries: meter.createCounter('toolsteps.provider.retries', { unit: '{retry}' }),
    rateLimitWaits: meter.createCounter('toolsteps.rate_limit.waits', { unit: '{wait}' }),
    rateLimitWaitTime: meter.createCounter('toolsteps.rate_limit.wait_time', { unit: 's' }),
    quotaRemaining: meter.createGauge('toolsteps.quota.remaining', { unit: '{request}' }),
    creditsSpent: meter.createCounter('toolsteps.credits.spent', { unit: '{credit}' }),
    tokenRefreshes: meter.createCounter('toolsteps.token.refreshes', { unit: '{refresh}' }),
    webhookDeliveries: meter.createCounter('toolsteps.webhook.deliveries', { unit: '{delivery}' }),
    queueDepth: meter.createObservableGauge('toolsteps.queue.depth', { unit: '{event}' }),
    deadLetters: meter.createCounter('toolsteps.queue.dead_letters', { unit: '{event}' }),
    builderRequests: meter.createCounter('toolsteps.builder.requests', { unit: '{request}' }),
    builderRequestDuration: meter.createHistogram('toolsteps.builder.request.duration', seconds),
  };
}

let cached: { provider: MeterProvider; instruments: Instruments } | undefined;

/**
 * The instruments, created on first use under one meter named `toolsteps`
 * (with its version), or undefined when no meter provider is registered or
 * the API is not loaded yet (the invocation's span loads it). A provider
 * registered anew (a test's, a restarted SDK) gets instruments of its own.
 */
export function instruments(): Instruments | undefined {
  if (!metricsRegistered()) return undefined;
  const api = otelApiIfLoaded();
  if (!api) return undefined;
  const provider = api.metrics.getMeterProvider();
  if (cached?.provider !== provider) {
    cached = {
      provider,
      instruments: createInstruments(provider.getMeter(INSTRUMENTATION_NAME, instrumentationVersion())),
    };
  }
  return cached.instruments;
}

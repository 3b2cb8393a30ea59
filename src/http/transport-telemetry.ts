// The transport's spans, events and metrics (docs/observability.md): one CLIENT span per attempt on
// the wire, rate-gate waits and retries as events of the invocation's span, provider request
// durations, retries, waits and the quota left per connection as metrics. Each piece is put into
// the client only when an SDK is registered (http-client.ts), so without one nothing here runs.

import { isToolstepsError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Gate, RateLimitSnapshot } from '../model/rate-limit.js';
import {
  addSafeEvent,
  errorType,
  injectTraceContext,
  inSpan,
  instruments,
  markFailed,
  otelApiIfLoaded,
  type SafeAttributes,
  safeAttributes,
  setSafeAttributes,
  urlTemplate,
} from '../telemetry/index.js';
import type { Exchange, Send } from './exchange.js';

/** What the transport's telemetry names of the request's integration and connection. */
export interface TransportTelemetryOptions {
  integration: { id: string; paths?: Readonly<Record<string, string>> | undefined };
  /** The connection's id as it is now, for the quota gauge. */
  connectionId: () => string;
}

function defaultPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The least `remaining` of the last answer that reported a quota. */
function quotaLeft(answers: readonly (RateLimitSnapshot | undefined)[]): number | undefined {
  const last = answers.findLast((snapshot) => snapshot !== undefined);
  if (!last || last.windows.length === 0) return undefined;
  return Math.min(...last.windows.map((window) => window.remaining));
}

/**
 * Each attempt (every retry, refresh replay and redirect hop) as a CLIENT
 * span named `METHOD url.template`, its `traceparent` sent with the request;
 * a 4xx or 5xx answer or a failure sets ERROR and `error.type` (the status,
 * else the error's code). The duration of each attempt and the quota its
 * answer reported are recorded.
 */
export function withAttemptSpans(send: Send, options: TransportTelemetryOptions): Send {
  const templates = Object.values(options.integration.paths ?? {});
  return (outgoing) => {
    const resendCount = outgoing.sends ? outgoing.sends.count++ : 0;
    const template = urlTemplate(outgoing.path, templates);
    const attributes: SafeAttributes = {
      'http.request.method': outgoing.method,
      'url.template': template,
      'url.scheme': outgoing.url.protocol.replace(':', ''),
      'server.address': outgoing.url.hostname,
      'server.port': defaultPort(outgoing.url),
      'toolsteps.integration': options.integration.id,
      'http.request.resend_count': resendCount > 0 ? resendCount : undefined,
    };
    return inSpan(`${outgoing.method} ${template}`, { kind: 'client', attributes }, async (span) => {
      const sent = span ? { ...outgoing, headers: injectTraceContext({ ...outgoing.headers }) } : outgoing;
      const started = performance.now();
      const result = await send(sent);
      const status = result.ok
        ? result.answer.status
        : isToolstepsError(result.error)
          ? result.error.status
          : undefined;
      const failure = result.ok
        ? status !== undefined && status >= 400
          ? String(status)
          : undefined
        : errorType(result.error);
      const api = otelApiIfLoaded();
      if (span && api) {
        setSafeAttributes(span, { 'http.response.status_code': status });
        if (failure !== undefined) markFailed(api, span, { code: failure });
      }
      recordAttempt(options, attributes, {
        status,
        failure,
        seconds: (performance.now() - started) / 1000,
        result,
      });
      return result;
    });
  };
}

function recordAttempt(
  options: TransportTelemetryOptions,
  attributes: SafeAttributes,
  attempt: { status: number | undefined; failure: string | undefined; seconds: number; result: Exchange },
): void {
  const meters = instruments();
  if (!meters) return;
  meters.providerRequestDuration.record(
    attempt.seconds,
    safeAttributes({
      'toolsteps.integration': options.integration.id,
      'http.request.method': attributes['http.request.method'],
      'url.template': attributes['url.template'],
      'http.response.status_code': attempt.status,
      'error.type': attempt.failure,
    }),
  );
  const remaining = quotaLeft(attempt.result.stats.answers);
  if (remaining !== undefined) {
    meters.quotaRemaining.record(
      remaining,
      safeAttributes({
        'toolsteps.integration': options.integration.id,
        'toolsteps.connection.id': options.connectionId(),
      }),
    );
  }
}

/** The active span, when there is one (the invocation's, between attempts). */
function activeSpan() {
  const api = otelApiIfLoaded();
  return api?.trace.getActiveSpan();
}

/**
 * A rate gate whose waits become `toolsteps.rate_limit.wait` events (reason
 * `quota`: held back before sending) and the wait metrics.
 */
export function observedGate(gate: Gate, clock: Clock, integration: string): Gate {
  return {
    async acquire(signal) {
      const started = clock.now();
      const waits = await gate.acquire(signal);
      if (waits > 0) noteWait(integration, 'quota', clock.now() - started, waits);
      return waits;
    },
    observe: (snapshot) => gate.observe(snapshot),
    learn: (snapshot) => gate.learn(snapshot),
    abandon: () => gate.abandon(),
  };
}

function noteWait(integration: string, reason: 'quota' | 'retry_after', waitedMs: number, waits = 1): void {
  const span = activeSpan();
  if (span) {
    addSafeEvent(span, 'toolsteps.rate_limit.wait', {
      'toolsteps.rate_limit.wait_ms': waitedMs,
      'toolsteps.rate_limit.reason': reason,
    });
  }
  const meters = instruments();
  if (!meters) return;
  const labels = safeAttributes({
    'toolsteps.integration': integration,
    'toolsteps.rate_limit.reason': reason,
  });
  meters.rateLimitWaits.add(waits, labels);
  meters.rateLimitWaitTime.add(waitedMs / 1000, labels);
}

/**
 * A retry decided (retries.ts): a `toolsteps.retry` event with the failure's
 * code and the wait, the retries metric, and, for a throttled answer's
 * `Retry-After`, a rate-limit wait.
 */
export function noteRetry(
  integration: string,
  error: { code: string; status?: number | undefined },
  retry: number,
  delayMs: number,
): void {
  const throttled = error.code === 'rate_limited' || error.status === 503;
  const span = activeSpan();
  if (span) {
    addSafeEvent(span, 'toolsteps.retry', {
      'error.type': error.code,
      'http.request.resend_count': retry,
      'toolsteps.rate_limit.wait_ms': delayMs,
    });
  }
  const meters = instruments();
  meters?.retries.add(1, safeAttributes({ 'toolsteps.integration': integration, 'error.type': error.code }));
  if (throttled) noteWait(integration, 'retry_after', delayMs);
}

import * as z from 'zod';
import { type AttemptOptions, attempt } from '../../src/http/attempt.js';
import { sharedDispatcher } from '../../src/http/dispatcher-wire.js';
import {
  type HttpRequest,
  type Outgoing,
  type PrepareOptions,
  prepareRequest,
} from '../../src/http/exchange.js';
import { fetchWire } from '../../src/http/fetch-wire.js';
import { ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { defineIntegration } from '../../src/model/define-integration.js';
import { MemoryLogger } from '../../src/model/logger.js';
import { intHeader, singleWindow } from '../../src/model/rate-limit.js';
import type { StepContext } from '../../src/step/define-step.js';

/**
 * A provider that exists only in the transport tests: an API key in a
 * Bearer header, one rate-limit window in `x-quota-remaining` and
 * `x-quota-reset` (epoch seconds), and errors as `{ "message": ... }`.
 * It keeps src/http tests independent of every real integration.
 */
export const PROBE = 'https://probe.example';

export const probe = defineIntegration({
  id: 'probe',
  title: 'Probe',
  description: 'A test-only provider.',
  keywords: [],
  connection: { kind: 'api_key', fields: z.object({}), requiredSecrets: ['apiKey'] },
  baseUrl: () => `${PROBE}/api`,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.apiKey}` }),
  readRateLimit: (headers, now) => {
    const reset = intHeader(headers, 'x-quota-reset');
    return singleWindow(
      'quota',
      now,
      intHeader(headers, 'x-quota-remaining'),
      undefined,
      reset && reset * 1000,
    );
  },
  parseError: (body) => {
    const message = (body as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? { message } : {};
  },
  apiCall: { methods: ['GET'] },
  paths: {},
});

export function probeConnection(apiKey = 'probe-key-0001'): Connection {
  return {
    id: 'probe-main',
    integration: 'probe',
    kind: 'api_key',
    fields: {},
    secrets: { apiKey },
    createdAt: 0,
    updatedAt: 0,
  };
}

export const probePrepare: PrepareOptions = {
  integration: probe,
  baseUrl: `${PROBE}/api`,
  defaultQuery: {},
  stepIdempotent: false,
  requestTimeoutMs: 5_000,
  maxResponseBytes: 64 * 1024,
};

/** The wire form of a request to the probe, as `prepareRequest` builds it. */
export function probeOutgoing(request: HttpRequest, connection = probeConnection()): Outgoing {
  return prepareRequest(request, connection, probePrepare);
}

/** The real `attempt` stage against the probe, on a manual clock, with a logger to read. */
export function probeAttempt(overrides: Partial<AttemptOptions> = {}) {
  const clock = new ManualClock();
  const logger = new MemoryLogger();
  const options: AttemptOptions = {
    // nock intercepts the global fetch, looked up per request.
    wire: fetchWire((...args) => globalThis.fetch(...args), sharedDispatcher()),
    clock,
    logger,
    readRateLimit: probe.readRateLimit,
    redact: (text) => text.split('probe-key-0001').join('[redacted]'),
    ...overrides,
  };
  return { send: attempt(options), clock, logger };
}

/** The error of a failed stage result, whatever its type. */
export const errorOf = (result: { ok: boolean }) => (result as unknown as { error: Error }).error;

/** A thing of the probe's `/api/things`: an id, and the key its creator gave it. */
export const Thing = z.object({ id: z.number(), key: z.string() });

/** The reconcile of a create of a thing: the thing `GET /things?key=` finds, as recovered, or nothing. */
export async function findThingByKey(input: { key: string }, { http }: StepContext) {
  const found = await http.request<unknown[]>({ method: 'GET', path: '/things', query: { key: input.key } });
  const thing = z.array(Thing).parse(found.body)[0];
  return thing ? { thing, recovered: true } : undefined;
}

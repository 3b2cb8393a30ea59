import { type Clock, systemClock } from '../../model/clock.js';
import type { TriggerEvent, TriggerEventHandler } from '../../model/trigger-event.js';
import { INTAKE_MAX_BODY_BYTES } from '../../server/body-limits.js';
import { declaredLength } from '../../server/capped-body.js';
import type { AnyTrigger } from '../define-trigger.js';
import { checkTimestampWindow, doneTtlFor } from './check-timestamp-window.js';
import { claimEvent, dedupeKey } from './claim-event.js';
import {
  type DeliveryContext,
  type DeliveryFacts,
  noteAnswer,
  noteRefusal,
  tracedDelivery,
} from './delivery-span.js';
import { filterAndMap } from './filter-and-map.js';
import { findSubscription } from './find-subscription.js';
import { type ClaimedEvent, type HandOffTiming, handOver } from './hand-over.js';
import { IntakeRefusal } from './intake-refusal.js';
import { type IntakeTenantOptions, servedTenants } from './intake-tenants.js';
import { parseEvent } from './parse-event.js';
import { checkDeclaredLength, type DeliveryBody, readBodyWithinLimit } from './read-body-within-limit.js';
import {
  DEFAULT_UNVERIFIED_FLOOR_MS,
  type DeliveryTimes,
  readUnverifiable,
  untilUnverifiedAnswer,
} from './refuse-unverified.js';
import { verifySignature } from './verify-signature.js';

/**
 * Which hooks the intake serves: every tenant `tenants` answers for (a
 * delivery to `/hooks/<tenant>/<id>` is looked up in that tenant's stores
 * only; `/hooks/<id>` is the default tenant's), or the one `tenant`
 * (default: the default tenant) whose `subscriptions` and `dedupe` are given.
 */
export interface IntakeOptions extends IntakeTenantOptions {
  /** Where trigger ids resolve: the registry. */
  triggers: {
    /** The trigger a stored subscription names; undefined refuses its deliveries rather than guessing. */
    trigger(id: string): AnyTrigger | undefined;
  };
  handler: TriggerEventHandler;
  clock?: Clock;
  /** Default INTAKE_MAX_BODY_BYTES (256 KB). */
  maxBodyBytes?: number;
  /**
   * The least time from a delivery's arrival to a refusal made before its
   * signature was verified (unknown id, bad signature, too large), so its
   * timing tells no one whether the id exists. Default 20 ms.
   */
  unverifiedFloorMs?: number;
  /**
   * The longest the handler may run: its signal aborts then and the
   * delivery answers 500 `handler_timeout`. Default 60 s.
   */
  handOffDeadlineMs?: number;
  /**
   * The claim's lease, renewed while the handler runs (up to its deadline),
   * so the claim of a process that died lapses within it. Default 5 s.
   */
  claimLeaseMs?: number;
  /**
   * How long a handled event id is remembered at least. Default 7 days, past
   * every provider's retries; a record lasts longer when the trigger's replay
   * window is still open then (see `doneTtlFor`).
   */
  doneTtlMs?: number;
  /** Told of every delivery that started nothing, with the reason. */
  onRefused?: (refusal: IntakeRefusal, context: DeliveryContext) => void;
  /** Told of every verified event the subscription's filter passed over. */
  onSkipped?: (reason: string, context: DeliveryContext) => void;
}

export type { DeliveryContext } from './delivery-span.js';

/** One webhook request as any HTTP server hands it over, so the intake is not tied to one framework. */
export interface IntakeRequest {
  method: string;
  /** Path and query of the request URL. */
  path: string;
  headers: Headers;
  body: DeliveryBody;
}

/** What to answer the provider: 2xx when the event is handled or a duplicate, so it stops retrying; 4xx/5xx with a code otherwise. */
export interface IntakeAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The one door for webhook deliveries: verify, dedupe, map, hand over, whatever server receives them. */
export interface Intake {
  /** Verifies and handles one delivery; never throws, every failure becomes an answer the provider understands. */
  handle(request: IntakeRequest): Promise<IntakeAnswer>;
  /**
   * Waits up to `timeoutMs` for started events whose done mark has not
   * landed yet (the store was away); returns how many are still pending.
   * Call it before the process stops.
   */
  settle(timeoutMs: number): Promise<number>;
}

/** Reads the body, noting when it was in (or refused), for the answer schedule of a refusal. */
async function readBody<T>(clock: Clock, times: DeliveryTimes, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } finally {
    times.bodyRead = clock.now();
  }
}

/** The hand-off's deadline and the claim's lease (renewed five times per lease), from the options. */
function handOffTiming(options: IntakeOptions): Omit<HandOffTiming, 'doneTtlMs'> {
  const leaseMs = options.claimLeaseMs ?? 5_000;
  return {
    deadlineMs: options.handOffDeadlineMs ?? 60_000,
    leaseMs,
    renewEveryMs: Math.max(50, Math.floor(leaseMs / 5)),
  };
}

/** A failure the stages did not foresee, as the refusal that asks the provider to send it again. */
function asRefusal(error: unknown): IntakeRefusal {
  return error instanceof IntakeRefusal
    ? error
    : new IntakeRefusal(500, 'internal_error', 'The delivery could not be handled; send it again.');
}

/** What the sender of a delivery that started nothing is told. */
function answerOf(refusal: IntakeRefusal): IntakeAnswer {
  const body: Record<string, unknown> = refusal.answer
    ? { ...refusal.answer }
    : { status: refusal.code, message: refusal.message };
  if (refusal.issues.length) body.issues = refusal.issues;
  return { status: refusal.status, body };
}

/**
 * The one intake every trigger's deliveries pass: subscription by path ->
 * body within the size limit -> signature -> parse and validate -> replay
 * window -> dedupe -> filter -> map -> hand over -> answer. The path is
 * looked up first so that a body nothing here can verify is never held.
 * Each stage is its own function; this only runs them in order and turns
 * a refusal into the provider's answer.
 */
export function createIntake(options: IntakeOptions): Intake {
  const clock = options.clock ?? systemClock;
  const settings = {
    maxBodyBytes: options.maxBodyBytes ?? INTAKE_MAX_BODY_BYTES,
    unverifiedFloorMs: options.unverifiedFloorMs ?? DEFAULT_UNVERIFIED_FLOOR_MS,
    doneTtlMs: options.doneTtlMs ?? 7 * 24 * 60 * 60_000,
  };
  const handOff = handOffTiming(options);
  // A started event is never released for a re-run: its done mark is retried until it lands.
  const tenants = servedTenants(options);

  async function stages(
    request: IntakeRequest,
    delivery: DeliveryFacts,
    times: DeliveryTimes,
  ): Promise<IntakeAnswer> {
    const { context } = delivery;
    if (request.method !== 'POST')
      throw new IntakeRefusal(405, 'method_not_allowed', 'Deliveries are POSTed.');
    const declared = declaredLength(request.headers);
    checkDeclaredLength(declared, settings.maxBodyBytes);
    const found = await findSubscription(request.path, tenants, options.triggers);
    if ('refusal' in found) {
      context.subscription = found.subscription;
      await readBody(clock, times, () => readUnverifiable(request.body, declared, settings.maxBodyBytes));
      throw found.refusal;
    }
    const { subscription, trigger, served } = found;
    const { dedupe } = served;
    Object.assign(context, { tenant: served.tenant, subscription: subscription.id });
    delivery.trigger = trigger.id;
    const body = await readBody(clock, times, () =>
      readBodyWithinLimit(request.body, declared, settings.maxBodyBytes),
    );
    verifySignature(trigger, subscription, { headers: request.headers, body });
    delivery.verified = true;
    const { payload, facts } = parseEvent(trigger, body);
    context.event_id = facts.eventId;
    const now = clock.now();
    const timing = { ...trigger, headers: request.headers, occurredAt: facts.occurredAt };
    const doneTtlMs = doneTtlFor(checkTimestampWindow(timing, now), now, settings.doneTtlMs);
    const key = dedupeKey(subscription, facts.eventId);
    const claimed: ClaimedEvent = { key, token: await claimEvent(dedupe, key, handOff.leaseMs) };
    const mapped = await filterAndMap(dedupe, claimed, trigger, subscription, payload);
    const { skipped, variables } = mapped;
    if (skipped !== undefined) {
      await dedupe.complete(key, claimed.token, doneTtlMs);
      options.onSkipped?.(skipped, context);
      return { status: 200, body: { status: 'skipped', event_id: facts.eventId, reason: skipped } };
    }
    const event: TriggerEvent = {
      tenant: served.tenant,
      subscription: subscription.id,
      trigger: trigger.id,
      event_id: facts.eventId,
      occurred_at: facts.occurredAt,
      variables,
      payload: mapped.delivered,
    };
    await handOver(options.handler, event, dedupe, claimed, { ...handOff, doneTtlMs });
    await served.deliveries.note(subscription.id, clock.now());
    return { status: 200, body: { status: 'started', event_id: facts.eventId } };
  }

  return {
    settle: (timeoutMs) => tenants.settle(timeoutMs),
    handle: (request) =>
      tracedDelivery(request.method, request.path, request.headers, async (delivery) => {
        const times: DeliveryTimes = { arrived: clock.now() };
        try {
          return noteAnswer(delivery, await stages(request, delivery, times));
        } catch (error) {
          const refusal = noteRefusal(delivery, asRefusal(error));
          options.onRefused?.(refusal, delivery.context);
          if (!delivery.verified) await untilUnverifiedAnswer(clock, times, settings.unverifiedFloorMs);
          return answerOf(refusal);
        }
      }),
  };
}

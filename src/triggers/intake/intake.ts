import { type Clock, systemClock } from '../../clock.js';
import type { DedupeStore } from '../../store/dedupe/dedupe-store.js';
import type { SubscriptionStore } from '../../store/subscriptions/subscription-store.js';
import type { AnyTrigger } from '../define-trigger.js';
import type { TriggerEvent, TriggerEventHandler } from '../trigger-event.js';
import { checkTimestampWindow, doneTtlFor } from './check-timestamp-window.js';
import { claimEvent, dedupeKey } from './claim-event.js';
import { filterEvent } from './filter-event.js';
import { findSubscription } from './find-subscription.js';
import { type ClaimedEvent, handOver } from './hand-over.js';
import { IntakeRefusal } from './intake-refusal.js';
import { mapEventVariables } from './map-event-variables.js';
import { parseEvent } from './parse-event.js';
import {
  checkDeclaredLength,
  DEFAULT_MAX_BODY_BYTES,
  type DeliveryBody,
  readBodyWithinLimit,
} from './read-body-within-limit.js';
import {
  DEFAULT_UNVERIFIED_FLOOR_MS,
  type DeliveryTimes,
  readUnverifiable,
  untilUnverifiedAnswer,
} from './refuse-unverified.js';
import { verifySignature } from './verify-signature.js';

export interface IntakeOptions {
  subscriptions: SubscriptionStore;
  /** Where trigger ids resolve: the registry. */
  triggers: { trigger(id: string): AnyTrigger | undefined };
  dedupe: DedupeStore;
  handler: TriggerEventHandler;
  clock?: Clock;
  /** Default 256 KB. */
  maxBodyBytes?: number;
  /**
   * The least time from a delivery's arrival to a refusal made before its
   * signature was verified (unknown id, bad signature, too large), so its
   * timing tells no one whether the id exists. Default 20 ms.
   */
  unverifiedFloorMs?: number;
  /** How long a claim holds while the handler runs. Default 5 minutes. */
  leaseMs?: number;
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

export interface DeliveryContext {
  subscription?: string;
  event_id?: string;
}

export interface IntakeRequest {
  method: string;
  /** Path and query of the request URL. */
  path: string;
  headers: Headers;
  body: DeliveryBody;
}

export interface IntakeAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface Intake {
  handle(request: IntakeRequest): Promise<IntakeAnswer>;
}

function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Reads the body, noting when it was in (or refused), for the answer schedule of a refusal. */
async function readBody<T>(clock: Clock, times: DeliveryTimes, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } finally {
    times.bodyRead = clock.now();
  }
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
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    unverifiedFloorMs: options.unverifiedFloorMs ?? DEFAULT_UNVERIFIED_FLOOR_MS,
    leaseMs: options.leaseMs ?? 5 * 60_000,
    doneTtlMs: options.doneTtlMs ?? 7 * 24 * 60 * 60_000,
  };

  async function stages(
    request: IntakeRequest,
    context: DeliveryContext,
    times: DeliveryTimes & { verified?: boolean },
  ): Promise<IntakeAnswer> {
    if (request.method !== 'POST')
      throw new IntakeRefusal(405, 'method_not_allowed', 'Deliveries are POSTed.');
    const declared = declaredLength(request.headers);
    checkDeclaredLength(declared, settings.maxBodyBytes);
    const found = await findSubscription(request.path, options.subscriptions, options.triggers);
    if ('refusal' in found) {
      context.subscription = found.subscription;
      await readBody(clock, times, () => readUnverifiable(request.body, declared, settings.maxBodyBytes));
      throw found.refusal;
    }
    const { subscription, trigger } = found;
    context.subscription = subscription.id;
    const body = await readBody(clock, times, () =>
      readBodyWithinLimit(request.body, declared, settings.maxBodyBytes),
    );
    verifySignature(trigger, subscription, { headers: request.headers, body });
    times.verified = true;
    const { payload, facts } = parseEvent(trigger, body);
    context.event_id = facts.eventId;
    const now = clock.now();
    const timing = { ...trigger, headers: request.headers, occurredAt: facts.occurredAt };
    const doneTtlMs = doneTtlFor(checkTimestampWindow(timing, now), now, settings.doneTtlMs);
    const key = dedupeKey(subscription, facts.eventId);
    const claimed: ClaimedEvent = { key, token: await claimEvent(options.dedupe, key, settings.leaseMs) };
    try {
      const skipped = filterEvent(trigger, subscription, payload);
      if (skipped !== undefined) {
        await options.dedupe.complete(key, claimed.token, doneTtlMs);
        options.onSkipped?.(skipped, context);
        return { status: 200, body: { status: 'skipped', event_id: facts.eventId, reason: skipped } };
      }
      const event: TriggerEvent = {
        subscription: subscription.id,
        trigger: trigger.id,
        event_id: facts.eventId,
        occurred_at: facts.occurredAt,
        variables: mapEventVariables(trigger, subscription, payload),
        payload,
      };
      await handOver(options.handler, event, options.dedupe, claimed, doneTtlMs);
    } catch (error) {
      if (!(error instanceof IntakeRefusal)) await options.dedupe.release(key, claimed.token);
      throw error;
    }
    await options.subscriptions.recordDelivery(subscription.id, clock.now()).catch(() => undefined);
    return { status: 200, body: { status: 'started', event_id: facts.eventId } };
  }

  return {
    async handle(request) {
      const context: DeliveryContext = {};
      const times: DeliveryTimes & { verified?: boolean } = { arrived: clock.now() };
      try {
        return await stages(request, context, times);
      } catch (error) {
        const refusal =
          error instanceof IntakeRefusal
            ? error
            : new IntakeRefusal(500, 'internal_error', 'The delivery could not be handled; send it again.');
        options.onRefused?.(refusal, context);
        if (!times.verified) await untilUnverifiedAnswer(clock, times, settings.unverifiedFloorMs);
        return answerOf(refusal);
      }
    },
  };
}

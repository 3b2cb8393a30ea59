import type { DedupeStore } from '../../store/dedupe/dedupe-store.js';
import type { TriggerEvent, TriggerEventHandler } from '../trigger-event.js';
import { IntakeRefusal } from './intake-refusal.js';

export interface ClaimedEvent {
  key: string;
  token: string;
}

/**
 * Stage 9, hand over. A handler that throws releases the claim and answers
 * 500, leaving the event undone so the provider's retry starts it; a
 * handled event is marked done before the 200 goes out, so that retry of a
 * lost 200 is a duplicate.
 */
export async function handOver(
  handler: TriggerEventHandler,
  event: TriggerEvent,
  dedupe: DedupeStore,
  claimed: ClaimedEvent,
  doneTtlMs: number,
): Promise<void> {
  try {
    await handler(event);
  } catch {
    await dedupe.release(claimed.key, claimed.token);
    throw new IntakeRefusal(
      500,
      'handler_failed',
      'The handler failed; the event was not started. Send it again.',
    );
  }
  await dedupe.complete(claimed.key, claimed.token, doneTtlMs);
}

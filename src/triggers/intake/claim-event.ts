import type { Subscription } from '../../model/subscription.js';
import type { DedupeStore } from '../../store/dedupe-store.js';
import { IntakeRefusal } from './intake-refusal.js';

/** Per subscription: two subscriptions to one event each start their own agent. */
export function dedupeKey(subscription: Subscription, eventId: string): string {
  return `${subscription.id}:${eventId}`;
}

/**
 * Stage 6, dedupe on the provider's event id. An event already handled is a
 * duplicate: 200, so the provider stops retrying, and nothing starts. An
 * event being handled right now answers 409, so the provider tries again
 * later and finds it done, or free again if its handler failed or its
 * holder died (the claim's short lease then lapses: see hold-claim.ts).
 */
export async function claimEvent(store: DedupeStore, key: string, leaseMs: number): Promise<string> {
  const claim = await store.claim(key, leaseMs);
  if (claim.status === 'claimed') return claim.token;
  if (claim.status === 'done') {
    throw new IntakeRefusal(200, 'duplicate', 'This event was already handled; nothing was started.');
  }
  throw new IntakeRefusal(409, 'in_flight', 'This event is being handled now; try again later.');
}

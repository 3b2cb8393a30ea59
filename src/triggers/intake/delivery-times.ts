import type { SubscriptionStore } from '../../store/subscription-store.js';
import { getOrCreate } from '../../values/get-or-create.js';

/** How often, at most, one subscription's last delivery time is written. */
export const DELIVERY_TIME_EVERY_MS = 1_000;

interface Slot {
  /** Real time (ms) the last write began. */
  lastWriteAt: number;
  writing?: Promise<void>;
  /** The newest delivery time not written yet. */
  latest?: number;
  trailing?: NodeJS.Timeout;
}

/**
 * Writes each subscription's last delivery time (`recordDelivery`) at most
 * once per `everyMs`. The time is what orphan scans and `triggers status`
 * show, to the second at best; writing it on every delivery cost the file
 * store an fsync and the Redis store a sealed compare-and-set per event,
 * more than the rest of the delivery. The first delivery after a quiet
 * spell is written before `note` resolves, as before; the ones that follow
 * within the spell are written once, by a trailing write with the newest
 * time, which `flush` (the intake's `settle`) also makes before a stop.
 * A write that fails is dropped: the time is informational, never a
 * reason to refuse an event that was handled.
 */
export class DeliveryTimes {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly store: Pick<SubscriptionStore, 'recordDelivery'>,
    private readonly everyMs = DELIVERY_TIME_EVERY_MS,
  ) {}

  /** Notes a delivery to subscription `id` at `at` (epoch ms); never rejects. */
  async note(id: string, at: number): Promise<void> {
    const slot = getOrCreate(this.slots, id, () => ({ lastWriteAt: Number.NEGATIVE_INFINITY }));
    const now = Date.now();
    if (!slot.writing && !slot.trailing && now - slot.lastWriteAt >= this.everyMs) {
      return this.write(id, slot, at);
    }
    slot.latest = Math.max(slot.latest ?? at, at);
    if (slot.trailing) return;
    const one = slot;
    one.trailing = setTimeout(
      () => {
        one.trailing = undefined;
        void this.writeLatest(id, one);
      },
      Math.max(0, slot.lastWriteAt + this.everyMs - now),
    );
    one.trailing.unref();
  }

  /** Writes every time still waiting for its trailing write. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.slots].map(([id, slot]) => {
        clearTimeout(slot.trailing);
        slot.trailing = undefined;
        return this.writeLatest(id, slot);
      }),
    );
  }

  private async write(id: string, slot: Slot, at: number): Promise<void> {
    slot.lastWriteAt = Date.now();
    const writing = this.store.recordDelivery(id, at).catch(() => undefined);
    slot.writing = writing;
    await writing;
    if (slot.writing === writing) slot.writing = undefined;
  }

  /** One write at a time per subscription, so an older time never lands after a newer one. */
  private async writeLatest(id: string, slot: Slot): Promise<void> {
    while (slot.writing) await slot.writing;
    const at = slot.latest;
    slot.latest = undefined;
    if (at !== undefined) await this.write(id, slot, at);
  }
}

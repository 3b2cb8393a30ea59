import * as z from 'zod';
import type { TwinControl } from '../twin-control.js';

/** What a scenario sets on the contact-data twin: the sandbox key's balance. */
export const ContactDataTwinSeed = z.strictObject({
  credits: z.number().int().min(0).max(1_000_000).optional().describe("The sandbox key's credit balance."),
});

/** The contact-data twin's scenario face over the sandbox key (the one the sandbox connection holds). */
export function contactDataTwin(key: {
  setBalance(credits: number): void;
  balance(): number | undefined;
  spent(): number | undefined;
}): TwinControl {
  return {
    seedSchema: ContactDataTwinSeed,
    seed(raw) {
      const seed = ContactDataTwinSeed.parse(raw);
      if (seed.credits !== undefined) key.setBalance(seed.credits);
    },
    state: () => ({ credits: { balance: key.balance() ?? 0, spent: key.spent() ?? 0 } }),
  };
}

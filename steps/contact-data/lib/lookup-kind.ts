import type * as z from 'zod';

/**
 * What the find and enrich steps need of one kind of record (a person, a
 * company): how a lookup goes out and how the provider's answer comes back.
 * `companyLookup` and `personLookup` are the two.
 */
export interface LookupKind<Lookup, WireData, Item> {
  toWire(lookup: Lookup): Record<string, string>;
  wire: z.ZodType<WireData>;
  fromWire(data: WireData): Item;
}

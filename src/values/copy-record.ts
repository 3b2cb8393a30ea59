import { isPlainRecord } from './plain-record.js';

/**
 * A deep copy of a stored record: plain objects and arrays are copied level
 * by level, anything else (a Date an embedder put in, say) goes through
 * structuredClone. Records are JSON-shaped, and structuredClone alone cost
 * several times as much on the get every invocation makes.
 */
export function copyRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  if (!isPlainRecord(value)) return structuredClone(value);
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
  for (const key of Object.keys(value)) {
    const entry = copyRecord(value[key]);
    // An own key named __proto__ (JSON.parse makes them) stays a key; assigning it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: entry,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = entry;
  }
  return copy as T;
}

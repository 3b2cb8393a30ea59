/** An object literal's kind of value (or JSON.parse's): Object.prototype or no prototype, not a class instance. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The value under `key`, made by `make` and kept on the first ask: the memo
 * of per-tenant views, data keys and gates. Map.prototype.getOrInsertComputed
 * (a TC39 proposal) does this once Node has it.
 */
export function getOrCreate<Key, Value>(
  map: Map<Key, Value>,
  key: Key,
  make: (key: Key) => NoInfer<Value>,
): Value {
  // One lookup when the value is there (a per-call path asks every time); `has` only for a stored undefined.
  const found = map.get(key);
  if (found !== undefined || map.has(key)) return found as Value;
  const made = make(key);
  map.set(key, made);
  return made;
}

const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of every secret in `text`, including their URL-
 * and JSON-encoded forms, so a provider that echoes a token back in an error
 * body cannot leak it through us.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) result = result.split(form).join('[redacted]');
  }
  return result;
}

/** `redactSecrets` over every string inside a JSON-like value; the value is copied only where it changes. */
export function redactDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const usable = secrets.filter((secret): secret is string => !!secret && secret.length >= MIN_SECRET_LENGTH);
  if (!usable.length) return value;
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return redactSecrets(item, usable);
    if (Array.isArray(item)) {
      const mapped = item.map(visit);
      return mapped.some((entry, index) => entry !== item[index]) ? mapped : item;
    }
    if (item && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      let changed = false;
      const copy: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(item)) {
        const next = visit(entry);
        const nextKey = redactSecrets(key, usable);
        if (next !== entry || nextKey !== key) changed = true;
        copy[nextKey] = next;
      }
      return changed ? copy : item;
    }
    return item;
  };
  return visit(value) as T;
}

/**
 * An error from outside the family (a bug in a step, say), rebuilt with its
 * secrets redacted: same class name, redacted message, no cause to leak from.
 */
export function redactForeignError(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(
    error.message,
    secrets.filter((secret): secret is string => !!secret),
  );
  if (message === error.message) return error;
  const copy = new Error(message);
  Object.defineProperty(copy, 'name', { value: error.name, configurable: true, writable: true });
  return copy;
}

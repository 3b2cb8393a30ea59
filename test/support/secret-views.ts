import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Every way an error can be looked at: JSON, inspect (which walks `cause`), and the cause chain. */
export function everyView(value: unknown): string {
  const parts = [JSON.stringify(value) ?? '', inspect(value, { depth: 12 }), String(value)];
  let cause = (value as { cause?: unknown } | undefined)?.cause;
  while (cause) {
    parts.push(inspect(cause, { depth: 12 }), JSON.stringify(cause) ?? '');
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

/** No secret in the text: not whole, not URL-encoded, not its first 8 characters. */
export function expectNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(encodeURIComponent(secret));
    expect(text).not.toContain(secret.slice(0, 8));
  }
}

import * as z from 'zod';

/** Case-blind membership, for enums the provider capitalises. */
function listedWithoutCase(value: unknown, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return true;
  if (value === null || value === undefined) return false;
  const text = String(value).toLowerCase();
  return allowed.some((entry) => entry.toLowerCase() === text);
}

/** A setup filter: an optional, non-empty list of the values that should start the agent. */
export function onlyValues<const Values extends readonly [string, ...string[]]>(
  values: Values,
  description: string,
) {
  return z.array(z.enum(values)).min(1).optional().describe(description);
}

/** Why an event is skipped when its `field` value is outside the setup's list; undefined when it passes. */
export function skipUnlessListed(
  field: string,
  value: unknown,
  allowed: readonly string[] | undefined,
): string | undefined {
  return listedWithoutCase(value, allowed)
    ? undefined
    : `${field} ${value ?? 'none'} is not one of ${allowed?.join(', ')}`;
}

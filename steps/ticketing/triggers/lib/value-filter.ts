import * as z from 'zod';

/** Case-blind membership, for enums the provider capitalises. */
function listedWithoutCase(value: unknown, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return true;
  if (value === null || value === undefined) return false;
  const text = String(value).toLowerCase();
  return allowed.some((entry) => entry.toLowerCase() === text);
}

/**
 * A setup filter: an optional, non-empty list of the values that should start the agent.
 * Its choices are labelled in capitals (`x-toolsteps-labels`), as the provider's events
 * write them, so a person picks the value the payload shows; the list compares without case.
 */
export function onlyValues<const Values extends readonly [string, ...string[]]>(
  values: Values,
  description: string,
) {
  const labels = Object.fromEntries(values.map((value) => [value, value.toUpperCase()]));
  return z
    .array(z.enum(values).meta({ 'x-toolsteps-labels': labels }))
    .min(1)
    .optional()
    .describe(description);
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

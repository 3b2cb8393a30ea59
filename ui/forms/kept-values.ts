import type { FormField } from './form-field.js';

/**
 * What a new drawing of a form keeps of `value`: everything for the same
 * account; for another account, all but the account's own choices (another
 * account's assignee is no choice of this one's). Closed lists are kept.
 */
export function keptOnRedraw(
  fields: readonly FormField[],
  value: Record<string, unknown>,
  sameAccount: boolean,
): Record<string, unknown> {
  if (sameAccount) return value;
  for (const field of fields) {
    if (field.spec.options && !field.spec.options.fixed) delete value[field.spec.name];
  }
  return value;
}

import { checkField } from './field-value.js';
import type { FormField } from './form-field.js';

/**
 * The input a form's fields hold, and how many do not fit their schema
 * (those are left out of the input). With `show`, each field's message is
 * shown (or cleared) and the first bad field takes the focus.
 */
export function collectInput(
  fields: readonly FormField[],
  show: boolean,
): { input: Record<string, unknown>; problems: number } {
  const input: Record<string, unknown> = {};
  let problems = 0;
  for (const field of fields) {
    const checked = checkField(field.spec, field.read());
    if (checked?.problem !== undefined) {
      if (show && ++problems === 1) field.focus();
      if (!show) problems += 1;
    } else if (checked) {
      input[field.spec.name] = checked.value;
    }
    if (show) field.setProblem(checked?.problem);
  }
  return { input, problems };
}

import { type FormField, plainField } from './form-field.js';
import { multiSelectField } from './multi-select-field.js';
import { optionsField } from './options-field.js';
import type { OptionsLoader } from './options-pager.js';
import type { FieldSpec } from './schema-fields.js';

/**
 * The control a field gets: a list (tags, followers, statuses) a multi-select
 * sent as a list; a field with the account's choices (`load` given) a
 * searchable dropdown; anything else a text box, checkbox or dropdown.
 */
export function fieldFor(
  spec: FieldSpec,
  load: OptionsLoader | undefined,
  onFailure: (error: unknown) => void,
): FormField {
  if (spec.kind === 'multi' || spec.kind === 'list') return multiSelectField(spec, load, onFailure);
  return load ? optionsField(spec, load, onFailure) : plainField(spec);
}

import type { TriggerView } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { fieldFor } from './field-for.js';
import { checkField } from './field-value.js';
import type { FormField } from './form-field.js';
import { fieldsOf } from './schema-fields.js';

/**
 * The options of the chosen trigger (its setup schema), as a fieldset
 * `Options` in `<toolsteps-trigger-setup>`; nothing when the trigger has none.
 */
export class TriggerOptionsFields {
  readonly element: HTMLElement = h('div');
  #fields: FormField[] = [];

  /** Shows the options of `trigger`, empty, or none when no trigger is chosen. */
  show(trigger: TriggerView | undefined): void {
    this.#fields = trigger ? fieldsOf(trigger.setup).map((spec) => fieldFor(spec, undefined, () => {})) : [];
    render(
      this.element,
      this.#fields.length
        ? h(
            'fieldset',
            null,
            h('legend', null, 'Options'),
            this.#fields.map((field) => field.element),
          )
        : null,
    );
  }

  /** The values given, checked; undefined (with each problem shown at its field) when one is wrong. */
  values(): Record<string, unknown> | undefined {
    const values: Record<string, unknown> = {};
    for (const field of this.#fields) {
      const checked = checkField(field.spec, field.read());
      field.setProblem(checked?.problem);
      if (checked?.problem) return undefined;
      if (checked) values[field.spec.name] = checked.value;
    }
    return values;
  }
}

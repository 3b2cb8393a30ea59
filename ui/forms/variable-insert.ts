import { h } from '../dom/dom.js';
import type { FormField } from './form-field.js';

/**
 * The form's one "Insert variable" control (part `insert-variable`): it
 * offers each workflow variable as `{{name}}` and puts the one chosen into
 * the field that had the focus last, which it names; one control for the
 * form instead of a dropdown under every field.
 */
export class VariableInsert {
  readonly element: HTMLElement;
  readonly #select: HTMLSelectElement;
  readonly #target: HTMLElement;
  #field: FormField | undefined;

  constructor() {
    this.#select = h('select', {
      part: 'insert-variable',
      className: 'insert-variable',
      'aria-label': 'Insert variable',
      disabled: true,
      onchange: () => this.#insert(),
    });
    this.#target = h(
      'span',
      { className: 'hint', 'aria-live': 'polite' },
      'Click a field to insert a variable.',
    );
    this.element = h('div', { className: 'variable-insert' }, this.#select, this.#target);
  }

  /** Offers `names` for the fields of a newly drawn form; hidden when there are none. */
  show(fields: readonly FormField[], names: readonly string[]): void {
    this.#field = undefined;
    this.element.hidden = !names.length;
    this.#select.replaceChildren(
      h('option', { value: '' }, 'Insert variable…'),
      ...names.map((name) => h('option', { value: name }, `{{${name}}}`)),
    );
    this.#select.disabled = true;
    this.#target.textContent = 'Click a field to insert a variable.';
    for (const field of fields) {
      if (!field.insertVariable) continue;
      field.element.addEventListener('focusin', () => {
        this.#field = field;
        this.#select.disabled = false;
        this.#select.setAttribute('aria-label', `Insert variable into ${field.spec.title}`);
        this.#target.textContent = `into ${field.spec.title}`;
      });
    }
  }

  #insert(): void {
    const name = this.#select.value;
    this.#select.value = '';
    if (name && this.#field) this.#field.insertVariable!(name);
  }
}

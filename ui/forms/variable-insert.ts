import { h } from '../dom/dom.js';
import type { FormField } from './form-field.js';

/**
 * Adds an "Insert variable…" dropdown (part `insert-variable`) under a field
 * that can take one, offering each workflow variable as `{{name}}`; a field
 * is returned as it is when there is no variable or it takes none.
 */
export function withVariablePicker(field: FormField, names: readonly string[]): HTMLElement {
  if (!names.length || !field.insertVariable) return field.element;
  const picker = h(
    'select',
    {
      part: 'insert-variable',
      'aria-label': `Insert variable into ${field.spec.title}`,
      className: 'insert-variable',
      onchange: (event: Event) => {
        const select = event.target as HTMLSelectElement;
        if (select.value) field.insertVariable!(select.value);
        select.value = '';
      },
    },
    h('option', { value: '' }, 'Insert variable…'),
    names.map((name) => h('option', { value: name }, `{{${name}}}`)),
  );
  field.element.append(picker);
  return field.element;
}

import { h, uniqueId } from '../dom/dom.js';
import type { FieldSpec } from './schema-fields.js';

/**
 * One field of a generated form: its label (the field's title), control,
 * hint, and the inline message under it (tied by aria-describedby, with
 * aria-invalid), and a way to read and fill it. Options fields are built by
 * options-field.ts on the same frame.
 */
export interface FormField {
  readonly spec: FieldSpec;
  readonly element: HTMLElement;
  read(): string | boolean | string[];
  write(value: unknown): void;
  setProblem(message: string | undefined): void;
  focus(): void;
  /** Inserts `{{name}}` where the caret is (text fields), or chooses it (dropdowns). */
  insertVariable?(name: string): void;
}

export interface FieldFrame {
  id: string;
  problem: HTMLElement;
  describedBy: string;
  wrap(control: HTMLElement, ...extra: (HTMLElement | null)[]): HTMLElement;
  setProblem(control: HTMLElement, message: string | undefined): void;
}

/** The label, hint and message around a control. */
export function fieldFrame(spec: FieldSpec): FieldFrame {
  const id = uniqueId(`field-${spec.name}`);
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const problem = h('p', { id: problemId, className: 'problem', part: 'problem', hidden: true });
  const hint = spec.description
    ? h('p', { id: hintId, className: 'hint', part: 'hint' }, spec.description)
    : null;
  return {
    id,
    problem,
    describedBy: [hint ? hintId : '', problemId].filter(Boolean).join(' '),
    wrap: (control, ...extra) =>
      h(
        'div',
        { className: 'field', part: 'field', 'data-field': spec.name },
        // The star stays outside the label: the field's name is its title alone; `required` says the rest.
        h(
          'div',
          { className: 'field-label' },
          h('label', { htmlFor: id, part: 'label' }, spec.title),
          spec.required ? h('span', { 'aria-hidden': 'true', className: 'required' }, '*') : null,
        ),
        control,
        ...extra,
        hint,
        problem,
      ),
    setProblem: (control, message) => {
      problem.hidden = !message;
      problem.textContent = message ?? '';
      if (message) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    },
  };
}

function insertAtCaret(input: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  input.setRangeText(text, start, end, 'end');
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.focus();
}

function textControl(spec: FieldSpec, frame: FieldFrame): HTMLInputElement | HTMLTextAreaElement {
  const common = {
    id: frame.id,
    name: spec.name,
    part: 'control',
    required: spec.required,
    'aria-describedby': frame.describedBy,
  };
  if (spec.kind === 'long-text' || spec.kind === 'json') return h('textarea', { ...common, rows: 3 });
  const type =
    spec.format === 'date' ? 'date' : spec.kind === 'number' || spec.kind === 'integer' ? 'text' : 'text';
  const inputmode = spec.kind === 'number' || spec.kind === 'integer' ? 'numeric' : undefined;
  return h('input', { ...common, type, inputmode, autocomplete: 'off' });
}

/** A field whose control is a text box, a checkbox, a list of choices or checkboxes for a multi-choice. */
export function plainField(spec: FieldSpec): FormField {
  const frame = fieldFrame(spec);
  if (spec.kind === 'boolean') {
    const box = h('input', {
      id: frame.id,
      type: 'checkbox',
      part: 'control',
      'aria-describedby': frame.describedBy,
    });
    return {
      spec,
      element: frame.wrap(box),
      read: () => box.checked,
      write: (value) => {
        box.checked = value === true;
      },
      setProblem: (message) => frame.setProblem(box, message),
      focus: () => box.focus(),
    };
  }
  if (spec.kind === 'enum' || spec.kind === 'multi') return choiceField(spec, frame);
  const input = textControl(spec, frame);
  return {
    spec,
    element: frame.wrap(input),
    read: () => input.value,
    write: (value) => {
      input.value =
        value === undefined || value === null
          ? ''
          : Array.isArray(value) && spec.kind === 'list'
            ? value.join(', ')
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
    },
    setProblem: (message) => frame.setProblem(input, message),
    focus: () => input.focus(),
    insertVariable: (name) => insertAtCaret(input, `{{${name}}}`),
  };
}

function choiceField(spec: FieldSpec, frame: FieldFrame): FormField {
  const select = h(
    'select',
    {
      id: frame.id,
      name: spec.name,
      part: 'control',
      multiple: spec.kind === 'multi',
      required: spec.required,
      'aria-describedby': frame.describedBy,
    },
    spec.kind === 'enum' ? h('option', { value: '' }, spec.required ? 'Choose…' : '(none)') : null,
    spec.choices.map((choice) => h('option', { value: String(choice) }, String(choice))),
  );
  const variables = h('optgroup', { label: 'Workflow variables' });
  return {
    spec,
    element: frame.wrap(select),
    read: () =>
      spec.kind === 'multi' ? [...select.selectedOptions].map((option) => option.value) : select.value,
    write: (value) => {
      const wanted = (Array.isArray(value) ? value : [value]).map(String);
      for (const option of select.options) option.selected = wanted.includes(option.value);
    },
    setProblem: (message) => frame.setProblem(select, message),
    focus: () => select.focus(),
    insertVariable: (name) => {
      if (!variables.isConnected) select.append(variables);
      const value = `{{${name}}}`;
      if (![...select.options].some((option) => option.value === value)) {
        variables.append(h('option', { value }, value));
      }
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    },
  };
}

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
      // A field folded under "More options" unfolds to show what is wrong with it.
      if (message) control.closest('details')?.setAttribute('open', '');
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

/** A field whose control is a text box, a checkbox or a dropdown (lists are multi-select-field.ts's). */
export function plainField(spec: FieldSpec): FormField {
  const frame = fieldFrame(spec);
  if (spec.kind === 'boolean') {
    // Untouched, it reads '' and is left out of the input: the step's default applies, not a `false` nobody chose.
    let touched = false;
    const box = h('input', {
      id: frame.id,
      type: 'checkbox',
      part: 'control',
      'aria-describedby': frame.describedBy,
      onchange: () => {
        touched = true;
      },
    });
    return {
      spec,
      element: frame.wrap(box),
      read: () => (touched || box.checked ? box.checked : ''),
      write: (value) => {
        touched = typeof value === 'boolean';
        box.checked = value === true;
      },
      setProblem: (message) => frame.setProblem(box, message),
      focus: () => box.focus(),
    };
  }
  if (spec.kind === 'enum') return choiceField(spec, frame);
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

/** What the empty choice of a dropdown says: to choose, the default it leaves in place, or that it is left out. */
export function emptyChoice(spec: FieldSpec): string {
  if (spec.required) return 'Choose…';
  const fallback = spec.defaultValue;
  return typeof fallback === 'string' || typeof fallback === 'number'
    ? `Default (${spec.labelOf(fallback)})`
    : 'Not set';
}

function choiceField(spec: FieldSpec, frame: FieldFrame): FormField {
  const select = h(
    'select',
    {
      id: frame.id,
      name: spec.name,
      part: 'control',
      required: spec.required,
      'aria-describedby': frame.describedBy,
    },
    h('option', { value: '' }, emptyChoice(spec)),
    spec.choices.map((choice) => h('option', { value: String(choice) }, spec.labelOf(choice))),
  );
  const variables = h('optgroup', { label: 'Workflow variables' });
  return {
    spec,
    element: frame.wrap(select),
    read: () => select.value,
    write: (value) => {
      select.value = value === undefined || value === null ? '' : String(value);
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

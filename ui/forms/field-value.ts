import type { FieldSpec } from './schema-fields.js';

/**
 * What a field's control holds, as the value the step's input gets, and
 * the inline message the same schema gives when it does not fit. A value
 * with a `{{variable}}` placeholder is the workflow's to fill: it is passed
 * as written and checked when the test run fills it.
 */
export type Checked = { value: unknown; problem?: undefined } | { value?: undefined; problem: string };

type Bounds = {
  type?: string | string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  format?: string;
  anyOf?: Bounds[];
  oneOf?: Bounds[];
};

export const hasPlaceholder = (text: string) => /\{\{\s*[\w.$-]+\s*\}\}/.test(text);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkText(text: string, schema: Bounds): string | undefined {
  if (schema.minLength !== undefined && text.length < schema.minLength) {
    return `Must be at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}.`;
  }
  if (schema.maxLength !== undefined && text.length > schema.maxLength) {
    return `Must be at most ${schema.maxLength} characters.`;
  }
  if (schema.format === 'email' && !EMAIL.test(text)) return 'Must be an email address.';
  if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'Must be a date (YYYY-MM-DD).';
  if (schema.pattern && schema.format !== 'email') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(text)) return 'Does not have the expected form.';
    } catch {
      // A pattern this browser cannot compile is the server's to check.
    }
  }
  return undefined;
}

function checkNumber(value: number, schema: Bounds, integer: boolean): string | undefined {
  if (Number.isNaN(value)) return 'Must be a number.';
  if (integer && !Number.isInteger(value)) return 'Must be a whole number.';
  if (schema.minimum !== undefined && value < schema.minimum) return `Must be at least ${schema.minimum}.`;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    return `Must be more than ${schema.exclusiveMinimum}.`;
  }
  if (schema.maximum !== undefined && value > schema.maximum) return `Must be at most ${schema.maximum}.`;
  return undefined;
}

/** A text or id field: the first branch of the union the text fits (a number id before an email). */
function checkScalar(text: string, schema: Bounds): Checked {
  const union = (schema.anyOf ?? schema.oneOf ?? [schema]).filter((b) => b.type !== 'null');
  let firstProblem: string | undefined;
  for (const branch of union) {
    const types = Array.isArray(branch.type) ? branch.type : [branch.type ?? 'string'];
    if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text.trim())) {
      const problem = checkNumber(
        Number(text),
        branch,
        types.includes('integer') && !types.includes('number'),
      );
      if (!problem) return { value: Number(text) };
      firstProblem ??= problem;
    } else if (types.includes('string')) {
      const problem = checkText(text, branch);
      if (!problem) return { value: text };
      firstProblem ??= problem;
    }
  }
  const wantsNumber = union.every((b) => b.type === 'integer' || b.type === 'number');
  return {
    problem: firstProblem ?? (wantsNumber ? 'Must be a number.' : 'Does not have the expected form.'),
  };
}

/**
 * A list's items, each as its item schema takes it (a follower's user id as a
 * number, a status as one of the listed values); a `{{variable}}` is passed as written.
 */
function checkItems(field: FieldSpec, items: readonly string[]): Checked {
  const itemSchema = ((field.schema as { items?: Bounds }).items ?? {}) as Bounds;
  const values: unknown[] = [];
  for (const item of items) {
    if (hasPlaceholder(item)) {
      values.push(item);
      continue;
    }
    const choice = field.choices.find((c) => String(c) === item);
    if (field.kind === 'multi' && choice === undefined)
      return { problem: `“${item}” is not one of the choices.` };
    const checked = field.kind === 'multi' ? { value: choice } : checkScalar(item, itemSchema);
    if (checked.problem) return { problem: `“${item}”: ${checked.problem}` };
    values.push(checked.value);
  }
  return { value: values };
}

/** The field's value from its control's text, or the message to show under it. Empty: absent. */
export function checkField(field: FieldSpec, raw: string | boolean | string[]): Checked | undefined {
  // A checkbox nobody touched reads '': absent, as the step's own default is meant to apply.
  if (field.kind === 'boolean') return raw === '' ? undefined : { value: raw === true };
  if (Array.isArray(raw)) {
    if (!raw.length) return field.required ? { problem: 'Choose at least one.' } : undefined;
    return checkItems(field, raw);
  }
  const text = String(raw);
  if (!text.trim()) return field.required ? { problem: `${field.title} is required.` } : undefined;
  if (hasPlaceholder(text) && field.kind !== 'json') return { value: text };
  switch (field.kind) {
    case 'enum': {
      const choice = field.choices.find((c) => String(c) === text);
      return choice === undefined ? { problem: 'Choose one of the listed values.' } : { value: choice };
    }
    case 'list':
      return checkItems(
        field,
        text
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      );
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { problem: 'Must be JSON.' };
      }
    default:
      return checkScalar(text, field.schema as Bounds);
  }
}

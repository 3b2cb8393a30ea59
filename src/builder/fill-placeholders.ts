import { type FieldIssue, InputError } from '../errors/index.js';
import { checkPlaceholderBudget, PLACEHOLDER } from './placeholder-budget.js';

const WHOLE = new RegExp(`^${PLACEHOLDER.source}$`);
const INSIDE = PLACEHOLDER;

/**
 * A draft input with its `{{variable}}` placeholders filled from sample
 * values: a string that is only a placeholder takes the value itself (a
 * number stays a number), a placeholder inside text takes its text. A
 * placeholder with no sample is an InputError naming the field, so nothing
 * is sent with a hole in it. What filling would build is measured first and
 * refused past its caps (placeholder-budget.ts), before anything is built.
 */
export function fillPlaceholders(input: Record<string, unknown>, samples: Record<string, unknown>) {
  checkPlaceholderBudget(input, samples);
  const missing: FieldIssue[] = [];
  const fill = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const whole = WHOLE.exec(value);
      if (whole) return sample(whole[1]!, path);
      return value.replace(INSIDE, (_text, name: string) => {
        const found = sample(name, path);
        return typeof found === 'string' ? found : JSON.stringify(found ?? null);
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => fill(item, `${path}.${index}`));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [key, fill(inner, path ? `${path}.${key}` : key)]),
      );
    }
    return value;
  };
  const sample = (name: string, path: string): unknown => {
    if (Object.hasOwn(samples, name)) return samples[name];
    missing.push({ path: path || '(input)', message: `no sample value for {{${name}}}` });
    return undefined;
  };
  const filled = fill(input, '') as Record<string, unknown>;
  if (missing.length) {
    throw new InputError(
      `Give a sample value for every variable the input uses: ${missing.map((issue) => issue.message.slice(20)).join(', ')}.`,
      missing,
    );
  }
  return filled;
}

import * as z from 'zod';

/** The parts of a step definition the options rules read. */
interface Declaring {
  input: z.ZodType;
  options?: Readonly<Record<string, { dependsOn?: readonly string[] | undefined } | undefined>> | undefined;
  accountSchema?: unknown;
}

/** The names of an object input's fields; undefined when the input is not an object schema. */
export function inputFieldNames(input: z.ZodType): string[] | undefined {
  return input instanceof z.ZodObject ? Object.keys(input.shape) : undefined;
}

/**
 * An options or account-schema declaration that cannot work, said when the
 * step is defined rather than when a form first asks: options on a field
 * the input does not have, a `dependsOn` naming one, an account schema on an
 * input that is not an object.
 */
export function optionsDeclarationProblem(definition: Declaring): string | undefined {
  const names = inputFieldNames(definition.input);
  if (definition.accountSchema && !names) return 'accountSchema needs an object input schema.';
  for (const [field, source] of Object.entries(definition.options ?? {})) {
    if (!names?.includes(field)) return `options for "${field}", which is not a field of the input.`;
    const unknown = (source?.dependsOn ?? []).find((name) => !names.includes(name) || name === field);
    if (unknown)
      return `options for "${field}" depend on "${unknown}", which is not another field of the input.`;
  }
  return undefined;
}

/**
 * A step's own properties except `input` and `output`, neither of them
 * read: what a step that narrows another spreads into its definition before
 * giving its own `get input() { return base.input.strict(); }` and
 * `get output() { return base.output; }`.
 *
 * Why: spreading the step itself (`{ ...base }`) reads every property,
 * getters included, so the base's schemas would be built when the module
 * is imported instead of when something first needs them (issue 37).
 */
export function withoutSchemas<Source extends { readonly input: unknown; readonly output: unknown }>(
  step: Source,
): Omit<Source, 'input' | 'output'> {
  const { input: _input, output: _output, ...rest } = Object.getOwnPropertyDescriptors(step);
  return Object.defineProperties({}, rest) as Omit<Source, 'input' | 'output'>;
}

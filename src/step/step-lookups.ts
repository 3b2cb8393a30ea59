import type * as z from 'zod';
import type { AnyStep } from './define-step.js';

/**
 * The step among `Steps` whose id is `Id`. Distributes over the union, so a
 * catalogue of literal ids picks exactly one step, and a wide `AnyStep`
 * (whose id is any `a.b`) answers itself.
 */
export type StepWithId<Steps extends AnyStep, Id extends string> = Steps extends AnyStep
  ? Id extends Steps['id']
    ? Steps
    : never
  : never;

/** What a caller may pass as the step's input: the input schema's `z.input` (before defaults and transforms). */
export type StepInput<S extends AnyStep> = z.input<S['input']>;

/** What the step returns once its output is validated: the output schema's `z.output`. */
export type StepOutput<S extends AnyStep> = z.output<S['output']>;

/**
 * The input fields of step `S` that `registry.options` answers for: those
 * its `options` map names, or any name when it has an account schema (whose
 * fields are known only per account). A step without options says so.
 */
export type OptionField<S extends AnyStep> = [NonNullable<S['accountSchema']>] extends [never]
  ? [keyof NonNullable<S['options']>] extends [never]
    ? `${S['id']} has no fields with options`
    : keyof NonNullable<S['options']> & string
  : string;

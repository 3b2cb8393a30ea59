import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Command } from 'commander';
import * as z from 'zod';
import { type FieldIssue, InputError } from '../../src/errors/index.js';
import type { AnyStep } from '../../src/step/define-step.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { cliRuntime, cliStep } from '../cli-context.js';
import { constraintsOption, numberOption } from '../option-values.js';
import { noteCuts, printJson, printValue } from '../output.js';
import { progressBar } from '../progress-bar.js';
import { readStdin } from './secret-sources.js';

export interface RunOptions {
  connection: string;
  input?: string;
  map?: string[];
  replaceVariables?: boolean;
  creditBudget?: string;
  column?: string[];
  with?: string;
  constraint?: string[];
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${what} is not valid JSON: ${(error as Error).message}`, [
      { path: 'input', message: 'invalid JSON' },
    ]);
  }
}

/** The one input field of a bulk step that holds a list of records (`contacts`, `companies`), if any. */
export function recordListField(step: AnyStep): { name: string; fields: string[] } | undefined {
  if (!(step.input instanceof z.ZodObject)) return undefined;
  const found: { name: string; fields: string[] }[] = [];
  for (const [name, field] of Object.entries(step.input.shape as Record<string, z.ZodType>)) {
    let schema: unknown = field;
    while (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) schema = schema.unwrap();
    if (schema instanceof z.ZodArray && schema.element instanceof z.ZodObject) {
      found.push({ name, fields: Object.keys(schema.element.shape) });
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

/** `First Name`, `first-name`, `FIRST_NAME` -> `first_name`. */
function normalizeHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** csv-parse loads when a CSV file is read, not on every `run` (a JSON input never needs it). */
const loadCsvParse = () =>
  createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync');

/**
 * A CSV file as records: the header row names the columns; each column maps
 * to the record field of the same name once normalized (`First Name` ->
 * `first_name`), or to the field `--column "<header>=<field>"` names
 * (`--column "Notes="` drops a column). A column that maps to no field is
 * refused rather than silently dropped. Empty cells are left out, so one
 * file can mix rows with an email and rows with first_name, last_name and
 * company. Every value is a string; row N of the file is record N-2.
 */
export function csvRecords(
  text: string,
  fields: readonly string[],
  columns: Record<string, string> = {},
): Record<string, string>[] {
  let rows: string[][];
  try {
    rows = loadCsvParse().parse(text, { bom: true, trim: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new InputError(`The CSV input could not be read: ${(error as Error).message}`, [
      { path: 'input', message: 'invalid CSV' },
    ]);
  }
  const [header, ...body] = rows;
  if (!header) throw new InputError('The CSV input is empty.', [{ path: 'input', message: 'no header row' }]);
  const explicit = new Map(Object.entries(columns).map(([from, to]) => [normalizeHeader(from), to]));
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const targets = header.map((column) => {
    const key = normalizeHeader(column);
    const target = explicit.get(key) ?? key;
    if (target === '') return undefined;
    if (!fields.includes(target)) {
      issues.push({ path: `columns.${column}`, message: `maps to no field (fields: ${fields.join(', ')})` });
    } else if (seen.has(target)) {
      issues.push({ path: `columns.${column}`, message: `a second column for ${target}` });
    }
    seen.add(target);
    return target;
  });
  if (issues.length) {
    throw new InputError(
      `CSV columns refused: ${issues.map((issue) => `"${issue.path.slice('columns.'.length)}" ${issue.message}`).join('; ')}. Rename them, map them with --column "<header>=<field>", or drop them with --column "<header>=".`,
      issues,
    );
  }
  return body.map((row) => {
    const record: Record<string, string> = {};
    row.forEach((cell, at) => {
      const target = targets[at];
      if (target && cell !== '') record[target] = cell;
    });
    return record;
  });
}

/**
 * `--input` takes inline JSON, `@file.json`, `@file.csv`, or `@-` for
 * standard input (JSON, or CSV for a bulk step). For a bulk step
 * (one input field holding a list of records), a CSV file or a JSON file
 * holding a bare array becomes that list; `--with` adds the other fields.
 */
export async function readInput(
  value: string | undefined,
  step?: AnyStep,
  options: { columns?: Record<string, string>; with?: string } = {},
): Promise<unknown> {
  const extra = options.with === undefined ? {} : parseJson(options.with, '--with');
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
    throw new InputError('--with must be a JSON object.', [{ path: 'with', message: 'not an object' }]);
  }
  if (value === undefined) return extra;
  const fromStdin = value === '@-';
  const file = value.startsWith('@') && !fromStdin ? value.slice(1) : undefined;
  let text = fromStdin ? await readStdin() : value;
  if (file !== undefined) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new InputError(`--input file ${file} could not be read: ${(error as Error).message}`, [
        { path: 'input', message: 'unreadable file' },
      ]);
    }
  }
  const list = step ? recordListField(step) : undefined;
  // A file says CSV by its name; standard input by not looking like JSON (a bulk step only).
  const isCsv =
    (file !== undefined && /\.csv$/i.test(file)) ||
    (fromStdin && list !== undefined && !/^\s*[[{]/.test(text));
  if (isCsv && !list) {
    throw new InputError(
      `CSV input is for bulk steps (a list of records); ${step?.id ?? 'this step'} takes JSON.`,
      [{ path: 'input', message: 'CSV needs a bulk step' }],
    );
  }
  const parsed = isCsv && list ? csvRecords(text, list.fields, options.columns) : parseJson(text, '--input');
  if (list && Array.isArray(parsed)) return { ...extra, [list.name]: parsed };
  return options.with === undefined ? parsed : { ...extra, ...(parsed as object) };
}

function parseMappings(
  pairs: string[] = [],
  option = 'map',
  shape = 'name=<jsonpath>',
): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new InputError(`--${option} expects ${shape}, got "${pair}".`, [
        { path: option, message: shape },
      ]);
    mapping[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return mapping;
}

/**
 * For a write that reconciles (Create Ticket with external_id): whether this
 * run did the work or found what an earlier attempt had already done, so a
 * person re-running a command knows nothing was made twice.
 */
function printReconciliation(step: AnyStep, output: unknown): void {
  if (step.onReplay !== 'reconcile' || !output || typeof output !== 'object') return;
  const { recovered, already_done: alreadyDone } = output as { recovered?: unknown; already_done?: unknown };
  if (recovered === true || alreadyDone === true) {
    process.stdout.write(
      `${step.title}: recovered (reconciled): an earlier attempt had already done this; nothing new was sent.\n`,
    );
  } else if (recovered === false) {
    process.stdout.write(`${step.title}: done by this run, not recovered from an earlier attempt.\n`);
  }
}

/** The `run` action: invoke one step through the full pipeline and print its result. */
export async function runStepAction(stepId: string, options: RunOptions, command: Command): Promise<void> {
  const [step, { runtime }] = await Promise.all([cliStep(stepId), cliRuntime()]);
  const input = await readInput(options.input, step, {
    columns: parseMappings(options.column, 'column', '<header>=<field>'),
    ...definedOnly({ with: options.with }),
  });
  const budget =
    options.creditBudget === undefined ? undefined : numberOption(options.creditBudget, '--credit-budget');
  const constraints = constraintsOption(options.constraint);
  const bar = progressBar(process.stderr);
  try {
    const result = await runtime.invoke(step, {
      connection: options.connection,
      input,
      variables: parseMappings(options.map),
      ...definedOnly({
        replaceVariables: options.replaceVariables ? true : undefined,
        creditBudget: budget,
        constraints: Object.keys(constraints).length ? constraints : undefined,
      }),
      onProgress: (done, total, records) =>
        records ? bar.update(records.done, records.total) : bar.update(done, total, 'steps'),
    });
    bar.done();
    if (command.optsWithGlobals().json) {
      printJson(result);
      return;
    }
    const cuts = printValue('output:', result.output) + printValue('variables:', result.variables);
    printReconciliation(step, result.output);
    noteCuts(cuts);
    const credits = result.meta.credits;
    process.stdout.write(
      `(${result.meta.attempts} request${result.meta.attempts === 1 ? '' : 's'}, ${result.meta.durationMs} ms${
        credits
          ? `, credits charged ${credits.charged ?? 'unknown'} of estimated ${credits.estimated.min}-${credits.estimated.max}`
          : ''
      })\n`,
    );
  } finally {
    bar.done();
  }
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type * as z from 'zod';
import { InputError } from '../errors/index.js';
import { Scenario } from './scenario.js';

/** Scenario files are small; a larger one is a mistake (a log, a dump), refused before it is parsed. */
const MAX_SCENARIO_BYTES = 1024 * 1024;

function issuesOf(error: z.ZodError) {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(root)', message: issue.message }));
}

/**
 * A scenario from its text: YAML (a superset of JSON, so `.json` files parse
 * the same way) checked against the schema.
 *
 * @throws InputError naming the file and each failing field.
 */
export function parseScenario(text: string, source = 'scenario'): Scenario {
  let raw: unknown;
  try {
    // Core schema only: no custom tags, and aliases capped, so a file cannot expand into a bomb.
    raw = parseYaml(text, { schema: 'core', maxAliasCount: 100 });
  } catch (error) {
    throw new InputError(`${source} is not valid YAML or JSON: ${(error as Error).message}`, [
      { path: '(root)', message: 'not YAML or JSON' },
    ]);
  }
  const parsed = Scenario.safeParse(raw);
  if (!parsed.success) {
    const fields = issuesOf(parsed.error);
    const first = fields[0];
    throw new InputError(
      `${source} is not a valid scenario${first ? `: ${first.path}: ${first.message}` : ''}.`,
      fields,
    );
  }
  return parsed.data;
}

/** Reads and checks a scenario file (`.yaml`, `.yml` or `.json`). */
export async function loadScenarioFile(file: string): Promise<Scenario> {
  const text = await readFile(file, 'utf8');
  if (Buffer.byteLength(text) > MAX_SCENARIO_BYTES) {
    throw new InputError(`${file} is larger than 1 MiB: not a scenario.`, [
      { path: '(root)', message: 'too large' },
    ]);
  }
  return parseScenario(text, path.basename(file));
}

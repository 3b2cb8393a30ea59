import * as z from 'zod';
import { Scenario } from './scenario.js';

/** Where the published schema says it lives; scenario files point their `$schema` at it. */
export const SCENARIO_SCHEMA_ID = 'https://unpkg.com/toolsteps/eval-scenario.schema.json';

/**
 * The published JSON Schema (2020-12) of scenario files, from the zod schema
 * (the one source of truth), with each twin's own seed schema under
 * `twins.<mount>` so an editor completes a seed as the twin will check it.
 * `eval-scenario.schema.json` is this, committed; a test holds the two together.
 */
export function scenarioJsonSchema(twinSeeds: Readonly<Record<string, z.ZodType>>): Record<string, unknown> {
  const twins = z
    .strictObject(
      Object.fromEntries(Object.entries(twinSeeds).map(([mount, seed]) => [mount, seed.optional()])),
    )
    .default({})
    .describe("Each twin's starting state, added to its default seed.");
  const schema = z.toJSONSchema(Scenario.extend({ twins }), { io: 'input', target: 'draft-2020-12' });
  return { ...schema, $id: SCENARIO_SCHEMA_ID, title: 'toolsteps evaluation scenario' };
}

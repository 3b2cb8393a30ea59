import { TWIN_SEED_SCHEMAS } from '../../sandbox/twin-seed-schemas.js';
import { scenarioJsonSchema } from '../../src/eval/scenario-json-schema.js';

/**
 * `eval-scenario.schema.json` as it must read: the scenario schema with the
 * built-in twins' seed schemas. Regenerate with `toolsteps eval --schema >
 * eval-scenario.schema.json`; test/eval/scenario-schema.test.ts fails when stale.
 */
export function scenarioSchemaDocument(): string {
  return `${JSON.stringify(scenarioJsonSchema(TWIN_SEED_SCHEMAS), null, 2)}\n`;
}

import type * as z from 'zod';

/**
 * An emulator's face to evaluation scenarios (src/eval/): each seeds from
 * its own vocabulary, checked by its own zod schema, and reports its state
 * in a plain JSON snapshot that checks read with JSONPath. Scenario checks
 * read this snapshot and never the steps under test, so a step that lies
 * about what it did cannot pass its own check.
 */
export interface TwinControl {
  /** The seed body this twin takes; its JSON Schema is published beside the scenario schema. */
  readonly seedSchema: z.ZodType;
  /** Adds the seed (already parsed by `seedSchema`) to the current state. */
  seed(seed: unknown): void;
  /** The state a scenario's checks read: plain JSON, no secrets. */
  state(): unknown;
  /** Makes every access token issued so far expire now (refresh tokens stay good); how many. */
  expireTokens?(): number;
  /** Revokes every grant (access and refresh tokens): only a new sign-in helps. */
  revokeGrants?(): void;
}

import * as z from 'zod';
import { AnsweredOption } from '../options/answered-option.js';

/**
 * The shapes every builder API request and response has, the one source of
 * truth for the server's checks, the OpenAPI document and the UI kit's
 * types. Each carries an `id` in its meta, the name it has under
 * `components.schemas`. Stable: fields may be added, never renamed.
 */

/** Any JSON Schema 2020-12 document (a step's input, a trigger's payload). */
export const JsonSchemaDocument = z
  .record(z.string(), z.unknown())
  .meta({ id: 'JsonSchema', description: 'A JSON Schema 2020-12 document.' });

export const FieldIssue = z.object({ path: z.string(), message: z.string() }).meta({ id: 'FieldIssue' });

/**
 * Every refusal and failure: the library's error codes (`input_invalid`,
 * `auth_failed`, `not_found`, ...) and the server's own (`unauthorized`,
 * `forbidden`, `origin_not_allowed`, `body_too_large`, `rate_limited`,
 * `confirmation_required`, `not_implemented`, `route_not_found`, `server_busy`). Never a
 * secret, token or API key.
 */
export const ApiError = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      retryable: z.boolean(),
      fields: z.array(FieldIssue),
      hint: z.string().optional(),
      retryAfterMs: z.number().int().optional(),
    }),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiError>;

export const StepAccess = z.enum(['read', 'write', 'destructive']).meta({ id: 'StepAccess' });

export const StepHit = z
  .object({
    id: z.string(),
    title: z.string(),
    integration: z.string(),
    integrationTitle: z.string(),
    access: StepAccess,
    idempotent: z.boolean(),
    /** How a paid step's credits are counted, or null for a free one. */
    cost: z.string().nullable(),
    score: z.number(),
  })
  .meta({ id: 'StepHit' });

export const SearchQuery = z.object({
  q: z.string().max(200).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const SearchResponse = z.object({ hits: z.array(StepHit) }).meta({ id: 'SearchResponse' });

/** A deprecated major's replacement and the last day (UTC) it is served; null when it is not deprecated. */
const DeprecationView = z.object({ replacement: z.string(), endsOn: z.string() }).nullable();
/** Changelog lines, one per version, oldest first. */
const ChangeLines = z.array(z.object({ version: z.string(), line: z.string() }));

export const DescribeQuery = z.object({ connection: z.string().max(64).optional() });
export const StepDescription = z
  .object({
    /** The id as asked for: `ticketing.list_tickets@1` for an earlier major. */
    id: z.string(),
    /** `major.minor` of the major described. */
    version: z.string(),
    /** `id@major` of the major described: what a saved draft stores to keep running it after an upgrade. */
    reference: z.string(),
    /** Every served major of the step, as references, latest first. */
    majors: z.array(z.string()),
    /** On a deprecated major, its replacement and the last day (UTC) it is served; null otherwise. */
    deprecated: DeprecationView,
    /** On an earlier major, the changelog lines of the versions after it (what `upgradeStep` changes); empty on the latest. */
    changes: ChangeLines,
    title: z.string(),
    integration: z.string(),
    description: z.string(),
    agentDescription: z.string(),
    access: StepAccess,
    idempotent: z.boolean(),
    cost: z.string().nullable(),
    input: JsonSchemaDocument,
    output: JsonSchemaDocument,
    /** The default output-to-variable mapping: name to JSONPath. */
    variables: z.record(z.string(), z.string()),
    examples: z.array(z.object({ title: z.string(), input: z.unknown() })),
    /** The connection the input schema is specialised to, or null for the generic schema. */
    connection: z.string().nullable(),
    /** The input fields whose choices `stepOptions` answers (also marked `x-toolsteps-options` in `input`). */
    optionFields: z.record(
      z.string(),
      z.object({
        /** Fields whose values the choices depend on: reload when they change. */
        dependsOn: z.array(z.string()),
        /** Whether a typed query narrows the choices. */
        searchable: z.boolean(),
        /** A closed list, answered without a connection. */
        fixed: z.boolean(),
      }),
    ),
    /** The account's own fields offered as named, typed properties (empty for the generic schema). */
    accountFields: z.array(
      z.object({
        name: z.string(),
        id: z.union([z.string(), z.number()]),
        title: z.string(),
        type: z.string(),
      }),
    ),
  })
  .meta({ id: 'StepDescription' });

/** A saved draft to upgrade: the input and mapping as the builder saved them under the reference in the path. */
export const UpgradeRequest = z
  .object({
    /** The draft input as saved; `{{name}}` placeholders are carried over as written. */
    input: z.record(z.string(), z.unknown()),
    /** The draft's mapping as saved: variable name to JSONPath over the output, over the step's defaults. */
    mapping: z.record(z.string(), z.string()).default({}),
    /** With true, the saved mapping replaced the step's defaults (as in a test run): none are carried over. */
    replaceVariables: z.boolean().default(false),
  })
  .meta({ id: 'UpgradeRequest' });

/** A variable of the saved mapping whose path moved in the latest major. */
const MovedPathView = z.object({ variable: z.string(), from: z.string(), to: z.string() });
/** A variable with no counterpart in the latest major: not in the upgraded mapping, and why. */
const UnmatchedPathView = z.object({ variable: z.string(), path: z.string(), reason: z.string() });
/**
 * A saved draft as the latest major takes it: `reference` and `version` of
 * the latest major (what to save instead), `from` the reference it was saved
 * on, `input` through that major's migration, `mapping` rewritten through
 * its output path map (`moved` says which paths moved, `unmatched` which
 * variables have no counterpart and were left out), `changes` the changelog
 * lines after it and `deprecated` its deprecation (null when it is the latest).
 */
export const UpgradeResponse = StepDescription.pick({
  reference: true,
  version: true,
  changes: true,
  deprecated: true,
})
  .extend({
    from: z.string(),
    input: z.record(z.string(), z.unknown()),
    /** What to save as the draft's mapping with `reference`: over the latest major's defaults unless the draft replaced them. */
    mapping: z.record(z.string(), z.string()),
    moved: z.array(MovedPathView),
    unmatched: z.array(UnmatchedPathView),
  })
  .meta({ id: 'UpgradeResponse' });

export const OptionsRequest = z
  .object({
    field: z.string().min(1).max(200),
    connection: z.string().max(64).optional(),
    query: z.string().max(200).optional(),
    cursor: z.string().max(2000).optional(),
    /** The values filled in so far, for fields whose options depend on others. */
    input: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'OptionsRequest' });
export const OptionsResponse = z
  .object({
    options: z.array(AnsweredOption()),
    nextCursor: z.string().nullable(),
    /** True when there were more choices than one answer holds and the rest was cut. */
    truncated: z.boolean(),
  })
  .meta({ id: 'OptionsResponse' });

export const TestRunRequest = z
  .object({
    connection: z.string().min(1).max(64),
    /** The draft input; a string that is exactly `{{name}}` takes the sample value itself, one inside text its text. */
    input: z.record(z.string(), z.unknown()),
    /** Sample values of the workflow variables the input's placeholders name. */
    samples: z.record(z.string(), z.unknown()).default({}),
    /** Variable name to JSONPath over the output, added to the step's defaults. */
    mapping: z.record(z.string(), z.string()).default({}),
    /** With true, only `mapping` is mapped, not the step's defaults. */
    replaceVariables: z.boolean().default(false),
    /** A write or destructive step runs only with `true`: a test run really creates, changes or deletes. */
    confirmWrite: z.boolean().default(false),
  })
  .meta({ id: 'TestRunRequest' });
export const TestRunResponse = z
  .object({
    /** Always true: the run is recorded as a test. */
    test: z.literal(true),
    /** The input as sent, placeholders filled. */
    input: z.record(z.string(), z.unknown()),
    output: z.unknown(),
    variables: z.record(z.string(), z.unknown()),
    meta: z.looseObject({
      step: z.string(),
      connection: z.string(),
      attempts: z.number().int(),
      durationMs: z.number(),
    }),
  })
  .meta({ id: 'TestRunResponse' });

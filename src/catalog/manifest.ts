import * as z from 'zod';
import { markOptions } from '../options/described-input.js';
import type { AnyEarlierMajor } from '../step/earlier-major.js';
import { FIRST_VERSION } from '../step/step-version.js';
import type { EarlierTriggerMajor } from '../triggers/earlier-trigger-major.js';
import { definedOnly } from '../values/defined-only.js';
import type { Registry } from './registry.js';

export const MANIFEST_VERSION = 1;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

/** What the manifest says of any earlier major, a step's or a trigger's: its version, deprecation and changelog. */
function earlierFacts(earlier: AnyEarlierMajor | EarlierTriggerMajor) {
  return {
    version: earlier.version,
    deprecated: { ...earlier.deprecated },
    ...definedOnly({ changelog: earlier.changelog && { ...earlier.changelog } }),
  };
}

/** An earlier major as the manifest lists it: what saved configurations of it validate and map against. */
function earlierEntry(earlier: AnyEarlierMajor) {
  return {
    ...earlierFacts(earlier),
    input: schemaOf(earlier.input, 'input'),
    output: schemaOf(earlier.output, 'output'),
    variables: { ...earlier.variables },
    ...definedOnly({ outputPaths: earlier.outputPaths && { ...earlier.outputPaths } }),
  };
}

/** An earlier trigger major as the manifest lists it: the payload its subscriptions' mappings read, and where its paths went. */
function earlierTriggerEntry(earlier: EarlierTriggerMajor) {
  return {
    ...earlierFacts(earlier),
    payload: schemaOf(earlier.payload, 'output'),
    variables: { ...earlier.variables },
    paths: { ...earlier.paths },
  };
}

/** The catalogue: every integration and step, with JSON Schemas generated from the zod schemas. */
export function buildManifest(registry: Registry) {
  return {
    version: MANIFEST_VERSION,
    integrations: registry.listIntegrations().map((integration) => ({
      id: integration.id,
      title: integration.title,
      description: integration.description,
      status: integration.status ?? 'stable',
      keywords: [...integration.keywords],
      connection: {
        kind: integration.connection.kind,
        fields: schemaOf(integration.connection.fields, 'input'),
        ...(integration.connection.oauth
          ? {
              oauth: {
                refreshes: integration.connection.oauth.refreshes,
                scopes: [...integration.connection.oauth.defaultScopes],
              },
            }
          : {}),
      },
      apiCallMethods: [...integration.apiCall.methods],
    })),
    steps: registry.listSteps().map((step) => ({
      id: step.id,
      // Former ids that still resolve; present only on steps that were renamed.
      ...definedOnly({ aliases: step.aliases?.length ? [...step.aliases] : undefined }),
      integration: step.integration.id,
      version: step.version ?? FIRST_VERSION,
      ...definedOnly({
        changelog: step.changelog && { ...step.changelog },
        deprecated: step.deprecated && { ...step.deprecated },
      }),
      title: step.title,
      description: step.description,
      agentDescription: step.agentDescription,
      keywords: [...step.keywords],
      access: step.access,
      idempotent: step.idempotent,
      ...(step.credits ? { credits: { basis: step.credits.basis } } : {}),
      input: markOptions(schemaOf(step.input, 'input'), step),
      output: schemaOf(step.output, 'output'),
      variables: { ...step.variables },
      // Earlier majors still served (`id@major`), newest first; present only on steps that have one.
      ...definedOnly({ earlier: step.earlier?.length ? step.earlier.map(earlierEntry) : undefined }),
    })),
    triggers: registry.listTriggers().map((trigger) => ({
      id: trigger.id,
      integration: trigger.integration.id,
      version: trigger.version ?? FIRST_VERSION,
      ...definedOnly({
        changelog: trigger.changelog && { ...trigger.changelog },
        deprecated: trigger.deprecated && { ...trigger.deprecated },
      }),
      title: trigger.title,
      description: trigger.description,
      agentDescription: trigger.agentDescription,
      keywords: [...trigger.keywords],
      signature: trigger.verify.name,
      // What mappings read: the parsed payload, which a new major may shape from the provider's body.
      payload: schemaOf(trigger.event, 'output'),
      setup: schemaOf(trigger.setup, 'input'),
      variables: { ...trigger.variables },
      // Earlier majors still served (`id@major`), newest first; present only on triggers that have one.
      ...definedOnly({
        earlier: trigger.earlier?.length ? trigger.earlier.map(earlierTriggerEntry) : undefined,
      }),
    })),
  };
}

/** The catalogue as JSON (manifest.json): what a builder or agent platform reads without loading any step code. */
export type Manifest = ReturnType<typeof buildManifest>;

/**
 * The manifest as the committed file holds it (indented, with a final
 * newline), so `toolsteps manifest --check` and the staleness test can
 * compare text with text, and a change reads as a diff.
 */
export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

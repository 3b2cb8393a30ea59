import * as z from 'zod';
import { markOptions } from '../options/described-input.js';
import { definedOnly } from '../values/defined-only.js';
import type { Registry } from './registry.js';

export const MANIFEST_VERSION = 1;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
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
    })),
    triggers: registry.listTriggers().map((trigger) => ({
      id: trigger.id,
      integration: trigger.integration.id,
      title: trigger.title,
      description: trigger.description,
      agentDescription: trigger.agentDescription,
      keywords: [...trigger.keywords],
      signature: trigger.verify.name,
      payload: schemaOf(trigger.event, 'input'),
      setup: schemaOf(trigger.setup, 'input'),
      variables: { ...trigger.variables },
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

import * as z from 'zod';
import { ROUTES } from './api-contract.js';
import { ApiError } from './api-schemas.js';
import type { RouteSpec } from './route-spec.js';

type Json = Record<string, unknown>;

/** The schemas under `components.schemas`, filled as routes name them. */
class Components {
  readonly schemas: Record<string, unknown> = {};

  /**
   * The schema of `type` as a reference or inline document: zod puts every
   * schema with a meta id under `$defs`; those move to the components, and
   * their references follow. `input` is what a client sends (defaults make
   * fields optional), `output` what it receives.
   */
  add(type: z.ZodType, io: 'input' | 'output'): unknown {
    const document = z.toJSONSchema(type, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
    const { $schema: _schema, $defs, ...root } = document;
    for (const [id, schema] of Object.entries(($defs ?? {}) as Json)) {
      this.schemas[id] ??= refsToComponents(schema);
    }
    return refsToComponents(root);
  }
}

function refsToComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(refsToComponents);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string'
        ? inner.replace('#/$defs/', '#/components/schemas/')
        : refsToComponents(inner),
    ]),
  );
}

const MEDIA = { json: 'application/json', 'event-stream': 'text/event-stream', html: 'text/html' } as const;

const REFUSALS: Record<string, string> = {
  '400': 'The request is invalid (`input_invalid`, `confirmation_required`).',
  '401': 'No valid bearer token (`unauthorized`).',
  '403':
    'The token lacks the builder scope, or the origin is not allowed (`forbidden`, `origin_not_allowed`).',
  '404': 'No such route, or no such id for this tenant (`not_found`).',
  '413': 'The request body is over the limit (`body_too_large`).',
  '429': 'Too many requests for this token (`rate_limited`).',
  '501': 'Not implemented by this server (`not_implemented`).',
  '502':
    "The provider refused or failed the call: `auth_failed` or `reauthorization_required` mean the account's sign-in was refused (reconnect it), anything else is the provider's answer.",
};

function parameters(route: RouteSpec, components: Components): Json[] {
  const fromPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = route.query ? (components.add(route.query, 'input') as Json) : undefined;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  const fromQuery = Object.entries((query?.properties ?? {}) as Json).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
  return [...fromPath, ...fromQuery];
}

function operation(route: RouteSpec, components: Components): Json {
  const errorBody = { content: { 'application/json': { schema: components.add(ApiError, 'output') } } };
  const responses: Json = {
    '200': {
      description: route.summary,
      content: { [MEDIA[route.contentType ?? 'json']]: { schema: components.add(route.response, 'output') } },
    },
  };
  for (const [status, description] of Object.entries(REFUSALS)) {
    responses[status] = { description, ...errorBody };
  }
  return {
    operationId: route.id,
    summary: route.summary,
    ...(route.auth === 'builder' ? {} : { security: [] }),
    parameters: parameters(route, components),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: components.add(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the builder API, from the route table and its
 * zod schemas: served at `/v1/openapi.json` and written to the package as
 * `builder-openapi.json` by the build (a test fails when that copy is stale).
 */
export function builderOpenApiDocument(version: string): Json {
  const components = new Components();
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'toolsteps builder API',
      version,
      description:
        "Search, describe and test tool steps, connect accounts and set up triggers for one tenant, from a builder's page. Every route but the document itself and the OAuth callback needs a bearer token with the `builder` scope.",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}

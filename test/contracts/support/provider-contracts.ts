import { expect } from 'vitest';
import {
  type DescriptionCorrection,
  type FoundOperation,
  loadVendored,
  OpenApiContract,
  type WireExchange,
} from './openapi-contract.js';

type Schema = Record<string, unknown>;

const integer = { type: 'integer', minimum: 1 };
const string = { type: 'string' };

/**
 * The ticketing provider documents paging and side-loading once, in its
 * Pagination and Side-loading guides, not on each operation. An operation
 * whose description has a Pagination section takes the kinds it names
 * (cursor: `page[size]`, `page[after]`, `page[before]`; offset: `page`,
 * `per_page`); a list without one takes both, as the guide says of every
 * list. Side-loads (`include`) are taken by single-record and list reads.
 */
function ticketingExtraParameters(found: FoundOperation): Record<string, Schema> {
  // Upload Files names its query parameters in prose: "a required `filename` query parameter",
  // and the token of a first upload "passed ... to each subsequent request".
  if (found.method === 'POST' && found.template === '/api/v2/uploads')
    return { filename: string, token: string };
  if (found.method !== 'GET') return {};
  // List Comments names its sort order in prose: with cursor paging, `sort` is "created_at" or "-created_at".
  const sorting: Record<string, Schema> =
    found.template === '/api/v2/tickets/{ticket_id}/comments'
      ? { sort: { type: 'string', enum: ['created_at', '-created_at'] } }
      : {};
  const cursor = { 'page[size]': integer, 'page[after]': string, 'page[before]': string };
  const offset = { page: integer, per_page: integer };
  const section = /#### Pagination([\s\S]*?)(####|$)/.exec(String(found.operation.description ?? ''))?.[1];
  const paging = section
    ? {
        ...(/cursor pagination/i.test(section) ? cursor : {}),
        ...(/offset pagination/i.test(section) ? offset : {}),
      }
    : found.template.endsWith('}')
      ? {}
      : { ...cursor, ...offset };
  return { ...paging, ...sorting, include: string };
}

/** `/acme/api/v2/tickets/1.json` -> `/api/v2/tickets/{ticket_id}`'s form: no subdomain, no `.json`. */
function ticketingSpecPath(path: string): string {
  return path.replace(/^\/[a-z0-9-]+(?=\/api\/)/i, '').replace(/\.json$/, '');
}

const customFieldValue = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, value: {} },
};

/**
 * Where the generated ticketing description contradicts its own examples.
 * Each correction names the example that shows the real shape.
 */
export const ZENDESK_CORRECTIONS: DescriptionCorrection[] = [
  {
    at: '/components/schemas/TicketUpdateInput/properties/additional_collaborators/items',
    replace: {
      oneOf: [
        { type: 'integer' },
        { type: 'string', format: 'email' },
        { $ref: '#/components/schemas/CollaboratorObject' },
      ],
    },
    reason:
      'the items point at CollaboratorObject alone, but the property\'s own words are "An array of numeric IDs, emails, or objects containing name and email properties"',
  },
  ...['external_id', 'group_id', 'organization_id'].map((field) => ({
    at: `/components/schemas/TicketObject/properties/${field}`,
    merge: { nullable: true },
    reason: `the description's own examples answer "${field}": null (e.g. TicketsResponseExample)`,
  })),
  ...['assignee_id', 'type', 'priority'].map((field) => ({
    at: `/components/schemas/TicketObject/properties/${field}`,
    merge: { nullable: true },
    reason: `optional on create ("${field}" is not required by TicketCreateInput), and the provider answers every ticket field, null when unset`,
  })),
  ...['TicketObject', 'TicketUpdateInput'].map((schema) => ({
    at: `/components/schemas/${schema}/properties/custom_fields/items`,
    replace: customFieldValue,
    reason:
      'the schema points at the custom field definition (CustomFieldObject), but TicketResponseExample and TicketCreateRequestExample send and answer [{"id", "value"}], as "Setting custom field values" describes',
  })),
  {
    at: '/components/schemas/ViewObject/properties/restriction',
    merge: { nullable: true },
    reason:
      'restriction is typed object, but its own words are "Is null when everyone in the account can access it"',
  },
  {
    at: '/paths/~1api~1v2~1organizations~1{organization_id}/put',
    merge: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['organization'],
              properties: {
                // OrganizationObject's fields, none required: an update names only what changes.
                organization: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    name: { type: 'string' },
                    domain_names: { type: 'array', items: { type: 'string' } },
                    details: { type: 'string', nullable: true },
                    notes: { type: 'string', nullable: true },
                    external_id: { type: 'string', nullable: true },
                    group_id: { type: 'integer', nullable: true },
                    tags: { type: 'array', items: { type: 'string' } },
                    shared_tickets: { type: 'boolean' },
                    shared_comments: { type: 'boolean' },
                    organization_fields: { type: 'object' },
                  },
                },
              },
            },
          },
        },
      },
    },
    reason:
      'Update Organization has no requestBody, but its own "Example Request" sends {"organization": {"notes": ...}}: the writable fields of OrganizationObject, each optional',
  },
];

export const zendeskSupport = new OpenApiContract(loadVendored('zendesk-support.json'), {
  toSpecPath: ticketingSpecPath,
  extraParameters: ticketingExtraParameters,
  corrections: ZENDESK_CORRECTIONS,
});

export const zendeskWebhooks = new OpenApiContract(loadVendored('zendesk-webhooks.json'), {
  // The webhooks description's server already ends in /api/v2.
  toSpecPath: (path) => ticketingSpecPath(path).replace(/^\/api\/v2/, ''),
});

/** `teamId` and `slug` scope every call of the deployments provider; the description declares them per operation. */
const vercelDocument = loadVendored('vercel.json');
const aliasAnswer = '/paths/~1v4~1aliases~1{idOrAlias}/get/responses/200/content/application~1json/schema';

/**
 * Where the vendored description (2025-10) is older than the SDK the
 * project tests with (@vercel/sdk 1.28.35, generated from a later copy):
 * the newer source wins (spec/openapi/README.md).
 */
export const VERCEL_CORRECTIONS: DescriptionCorrection[] = [
  {
    at: aliasAnswer,
    replace: (
      vercelDocument.paths['/v4/aliases/{idOrAlias}'] as unknown as {
        get: {
          responses: {
            200: { content: { 'application/json': { schema: { items: Record<string, unknown> } } } };
          };
        };
      }
    ).get.responses[200].content['application/json'].schema.items,
    reason:
      'the 2025-10 copy answers Get an Alias as an array of aliases; @vercel/sdk 1.28.35 (GetAliasResponseBody) reads one alias object, as the sandbox answers it',
  },
];

export const vercel = new OpenApiContract(vercelDocument, {
  toSpecPath: (path) => path,
  corrections: VERCEL_CORRECTIONS,
});

/**
 * Bodies the ticketing description gives only in prose: the tags endpoints
 * show `{"tags": [...], "updated_stamp": ..., "safe_update": ...}` in their
 * Safe Update section, with no requestBody schema.
 */
export const TAGS_BODY = {
  type: 'object',
  required: ['tags'],
  additionalProperties: false,
  properties: {
    tags: { type: 'array', items: { type: 'string' } },
    updated_stamp: { type: 'string' },
    safe_update: { type: ['string', 'boolean'] },
  },
};

const PROSE_BODIES: Record<string, Schema> = {
  'PUT /api/v2/tickets/{ticket_id}/tags': TAGS_BODY,
  'POST /api/v2/tickets/{ticket_id}/tags': TAGS_BODY,
  'DELETE /api/v2/tickets/{ticket_id}/tags': TAGS_BODY,
};

export function contractFor(mount: string, path: string): OpenApiContract {
  if (mount === 'deployments') return vercel;
  return /\/api\/v2\/webhooks/.test(path) ? zendeskWebhooks : zendeskSupport;
}

/** Every problem with an exchange: the request against the description, then the answer. */
export function exchangeProblems(exchange: WireExchange & { mount: string }): string[] {
  const contract = contractFor(exchange.mount, exchange.path);
  const found = contract.find(exchange.method, exchange.path);
  const prose = found && PROSE_BODIES[`${found.method} ${found.template}`];
  const problems = prose
    ? [
        ...contract.requestProblems({ ...exchange, body: undefined }),
        ...proseBodyProblems(prose, exchange.body, `${found.method} ${found.template}`),
      ]
    : contract.requestProblems(exchange);
  return [...problems, ...contract.responseProblems(exchange)];
}

function proseBodyProblems(schema: Schema, body: unknown, where: string): string[] {
  if (body === undefined) return [`${where}: the body is required`];
  const properties = schema.properties as Record<string, unknown>;
  const unknown = Object.keys(body as object).filter((key) => !(key in properties));
  const tags = (body as { tags?: unknown }).tags;
  return [
    ...unknown.map((key) => `${where}: body.${key} is not in the description`),
    ...(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string')
      ? []
      : [`${where}: body.tags must be strings`]),
  ];
}

/** Asserts that every exchange conforms, listing each problem with the exchange it came from. */
export function expectConforming(exchanges: (WireExchange & { mount: string })[]): void {
  expect(exchanges.length).toBeGreaterThan(0);
  const problems = exchanges.flatMap((exchange) =>
    exchangeProblems(exchange).map(
      (problem) => `${problem}\n    (${exchange.method} ${exchange.path}?${exchange.query})`,
    ),
  );
  expect(problems).toEqual([]);
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * Checks requests and answers against a vendored provider description
 * (contracts/openapi/, written by scripts/vendor-openapi.mjs from the
 * providers' own OpenAPI 3.0 documents).
 *
 * Requests: the operation (path and method) exists; every query parameter
 * is declared (or documented for every list, see `extraParameters`) and its
 * value has the declared type; every body field exists in the request
 * schema, recursively, and the body validates against it.
 * Answers: the body validates against the response schema for its status:
 * required fields, types, nullability and enums.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

export interface OpenApiDocument {
  'x-provenance': Record<string, unknown>;
  openapi: string;
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
}

export interface WireExchange {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  status: number;
  response: unknown;
}

export interface ContractOptions {
  /** Turns a path as sent into the description's form (strip a mount, `.json`, `/api/v2`). */
  toSpecPath(path: string): string;
  /**
   * Parameters documented once for many operations rather than on each
   * (pagination, side-loading): the provider's guides, not the operation,
   * describe them. Returns a schema per extra parameter name.
   */
  extraParameters?(operation: FoundOperation): Record<string, Record<string, unknown>>;
  /** Where the description contradicts itself (its schema against its own examples), the correction and why. */
  corrections?: DescriptionCorrection[];
}

export interface DescriptionCorrection {
  /** JSON pointer into the document, e.g. `/components/schemas/TicketObject/properties/group_id`. */
  at: string;
  /** Replaces the node (`replace`) or adds to it (`merge`). */
  merge?: Record<string, unknown>;
  replace?: Record<string, unknown>;
  reason: string;
}

export interface FoundOperation {
  template: string;
  method: string;
  operation: Schema;
  parameters: Schema[];
}

const documents = new Map<string, OpenApiDocument>();

export function loadVendored(name: string): OpenApiDocument {
  let document = documents.get(name);
  if (!document) {
    const file = fileURLToPath(new URL(`../../../contracts/openapi/${name}`, import.meta.url));
    document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
    documents.set(name, document);
  }
  return document;
}

/**
 * OpenAPI 3.0 schema to JSON Schema for Ajv: `nullable: true` becomes "or
 * null" (wrapped, so it works with enums and `$ref`s too); `oneOf` is read as
 * `anyOf` because generated descriptions list overlapping alternatives (a
 * deployment "with public information" and "with private information" both
 * match one answer); `discriminator` and `example` are annotations only.
 */
export function toJsonSchema(value: Json): Json {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (value === null || typeof value !== 'object') return value;
  const converted: Schema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'nullable' || key === 'discriminator' || key === 'example' || key === 'xml') continue;
    converted[key === 'oneOf' ? 'anyOf' : key] = toJsonSchema(inner);
  }
  if (value.nullable === true) return { anyOf: [converted, { type: 'null' }] };
  return converted;
}

export class OpenApiContract {
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    validateSchema: false,
  });
  private readonly id: string;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly compiled = new WeakMap<Schema, ValidateFunction>();

  readonly document: OpenApiDocument;

  constructor(
    vendored: OpenApiDocument,
    private readonly options: ContractOptions,
  ) {
    this.document = structuredClone(vendored);
    for (const correction of options.corrections ?? []) applyCorrection(this.document, correction);
    this.id = `contract:${String(vendored['x-provenance'].sourceFile)}`;
    this.ajv.addSchema({ components: toJsonSchema(this.document.components as Json) } as Schema, this.id);
  }

  /** The operation for a request, or undefined when the description has no such path and method. */
  find(method: string, sentPath: string): FoundOperation | undefined {
    const path = this.options.toSpecPath(sentPath);
    // Literal segments win over parameters (`/webhooks/test` before `/webhooks/{id}`).
    const candidates = Object.keys(this.document.paths)
      .filter((template) => templatePattern(template).test(path))
      .sort((a, b) => placeholderCount(a) - placeholderCount(b));
    for (const template of candidates) {
      const item = this.document.paths[template] as Record<string, Json>;
      const operation = item[method.toLowerCase()];
      if (!operation || typeof operation !== 'object' || Array.isArray(operation)) continue;
      const declared = [
        ...((item.parameters as Json[] | undefined) ?? []),
        ...(((operation as Schema).parameters as Json[] | undefined) ?? []),
      ].map((parameter) => this.resolve(parameter) as Schema);
      return { template, method: method.toUpperCase(), operation: operation as Schema, parameters: declared };
    }
    return undefined;
  }

  /** Every way the request departs from the description; empty when it conforms. */
  requestProblems(exchange: Pick<WireExchange, 'method' | 'path' | 'query' | 'body'>): string[] {
    const found = this.find(exchange.method, exchange.path);
    if (!found)
      return [`${exchange.method} ${this.options.toSpecPath(exchange.path)} is not in the description`];
    const where = `${found.method} ${found.template}`;
    const problems: string[] = [];
    const queryParameters = new Map<string, Schema>();
    for (const parameter of found.parameters) {
      if (parameter.in === 'query')
        queryParameters.set(String(parameter.name), (parameter.schema as Schema) ?? {});
    }
    for (const [name, schema] of Object.entries(this.options.extraParameters?.(found) ?? {})) {
      if (!queryParameters.has(name)) queryParameters.set(name, schema as Schema);
    }
    for (const name of new Set(exchange.query.keys())) {
      const schema = queryParameters.get(name);
      if (!schema) {
        problems.push(`${where}: query parameter "${name}" is not described`);
        continue;
      }
      for (const raw of exchange.query.getAll(name)) {
        const value = coerceQueryValue(raw, this.resolve(schema) as Schema);
        const validate = this.ajv.compile(toJsonSchema(this.inline(schema)) as Schema);
        if (!validate(value))
          problems.push(`${where}: query "${name}"=${raw}: ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    for (const parameter of found.parameters) {
      if (
        parameter.in === 'query' &&
        parameter.required === true &&
        !exchange.query.has(String(parameter.name))
      ) {
        problems.push(`${where}: required query parameter "${String(parameter.name)}" is missing`);
      }
    }
    const bodySchema = this.requestBodySchema(found);
    if (exchange.body !== undefined && exchange.body !== '') {
      if (!bodySchema) {
        problems.push(`${where}: the description has no request body, but one was sent`);
      } else {
        problems.push(
          ...this.unknownFields(bodySchema, exchange.body, 'body').map((text) => `${where}: ${text}`),
        );
        const validate = this.validator(`${where} request`, bodySchema);
        if (!validate(exchange.body))
          problems.push(`${where}: body: ${this.ajv.errorsText(validate.errors)}`);
      }
    } else if (bodySchema && (found.operation.requestBody as Schema | undefined)?.required === true) {
      problems.push(`${where}: the request body is required`);
    }
    return problems;
  }

  /** How the answer departs from the description for its status; empty when it conforms. */
  responseProblems(exchange: WireExchange): string[] {
    const found = this.find(exchange.method, exchange.path);
    if (!found) return [`${exchange.method} ${exchange.path} is not in the description`];
    const where = `${found.method} ${found.template} -> ${exchange.status}`;
    const responses = (found.operation.responses ?? {}) as Record<string, Json>;
    const described =
      responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`] ?? responses.default;
    if (!described) {
      return exchange.status < 300 ? [`${where}: the description has no answer with this status`] : [];
    }
    const schema = this.jsonSchemaOf(this.resolve(described) as Schema);
    if (!schema) return [];
    const validate = this.validator(where, schema);
    return validate(exchange.response)
      ? []
      : [`${where}: ${this.ajv.errorsText(validate.errors, { separator: '\n  ' })}`];
  }

  /** The statuses the description gives for an operation. */
  statuses(method: string, path: string): string[] {
    return Object.keys((this.find(method, path)?.operation.responses as Schema | undefined) ?? {});
  }

  requestBodySchema(found: FoundOperation): Schema | undefined {
    const body = found.operation.requestBody;
    return body ? this.jsonSchemaOf(this.resolve(body) as Schema) : undefined;
  }

  /** The schema's enum for a field path such as `ticket.status` in the request body. */
  private jsonSchemaOf(holder: Schema): Schema | undefined {
    const content = holder.content as Record<string, Schema> | undefined;
    const media = content?.['application/json'] ?? Object.values(content ?? {})[0];
    return (media?.schema as Schema | undefined) ?? undefined;
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(this.inline(schema)) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Points local `$ref`s at the components registered under this document's id. */
  private inline(schema: Json): Json {
    if (Array.isArray(schema)) return schema.map((item) => this.inline(item));
    if (schema === null || typeof schema !== 'object') return schema;
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#/')
          ? `${this.id}${value}`
          : this.inline(value),
      ]),
    );
  }

  /** A schema with its `$ref`s followed, as a plain object. */
  resolveSchema(schema: unknown): Schema {
    return (this.resolve(schema as Json) ?? {}) as Schema;
  }

  /** The JSON schema of an answer, e.g. `responseSchema('GET', '/v6/deployments', 200)`. */
  responseSchema(method: string, path: string, status: number): Schema {
    const found = this.find(method, path);
    const described = (found?.operation.responses as Record<string, Json> | undefined)?.[String(status)];
    const schema = described ? this.jsonSchemaOf(this.resolve(described) as Schema) : undefined;
    if (!schema) throw new Error(`No ${status} answer for ${method} ${path} in the description`);
    return this.resolveSchema(schema);
  }

  /** Whether a value conforms to a schema of this description. */
  conforms(schema: Schema, value: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(this.inline(schema)) as Schema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? [] : [this.ajv.errorsText(validate.errors)];
  }

  private resolve(value: Json): Json {
    let current = value;
    for (let depth = 0; depth < 20; depth += 1) {
      if (
        !current ||
        typeof current !== 'object' ||
        Array.isArray(current) ||
        typeof current.$ref !== 'string'
      ) {
        return current;
      }
      const parts = current.$ref.slice(2).split('/');
      current = parts.reduce<Json>(
        (node, part) => (node as Schema)[part] as Json,
        this.document as unknown as Json,
      );
    }
    return current;
  }

  /**
   * Fields present in the value that the schema does not name. OpenAPI
   * descriptions rarely say `additionalProperties: false`, yet a field the
   * provider does not describe is at best ignored: that is what this finds.
   */
  unknownFields(schema: Json, value: unknown, at: string): string[] {
    const resolved = this.resolve(schema) as Schema;
    if (!resolved || typeof resolved !== 'object') return [];
    const alternatives = [
      ...((resolved.allOf as Json[]) ?? []),
      ...((resolved.anyOf as Json[]) ?? []),
      ...((resolved.oneOf as Json[]) ?? []),
    ].map((alternative) => this.resolve(alternative) as Schema);
    if (Array.isArray(value)) {
      return resolved.items
        ? value.flatMap((item, index) => this.unknownFields(resolved.items as Json, item, `${at}[${index}]`))
        : [];
    }
    if (!value || typeof value !== 'object') return [];
    const properties = new Map<string, Json>();
    let open = resolved.additionalProperties !== undefined && resolved.additionalProperties !== false;
    for (const part of [resolved, ...alternatives]) {
      for (const [name, inner] of Object.entries((part.properties as Schema) ?? {}))
        properties.set(name, inner);
      if (part.additionalProperties !== undefined && part.additionalProperties !== false) open = true;
    }
    // A schema that names no properties at all says nothing about its fields.
    if (properties.size === 0) return [];
    return Object.entries(value).flatMap(([name, inner]) => {
      const property = properties.get(name);
      if (property === undefined) return open ? [] : [`${at}.${name} is not in the description`];
      return this.unknownFields(property, inner, `${at}.${name}`);
    });
  }
}

function applyCorrection(document: OpenApiDocument, correction: DescriptionCorrection): void {
  // JSON Pointer: `~1` is a slash inside a key (a path such as `/api/v2/...`), `~0` a tilde.
  const parts = correction.at
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = parts.pop() as string;
  const parent = parts.reduce<Schema>(
    (node, part) => {
      const next = node?.[part];
      if (!next || typeof next !== 'object') throw new Error(`No ${correction.at} in the description`);
      return next as Schema;
    },
    document as unknown as Schema,
  );
  const current = parent[last];
  if (current === undefined) throw new Error(`No ${correction.at} in the description`);
  parent[last] = (correction.replace ?? { ...(current as Schema), ...correction.merge }) as Json;
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function placeholderCount(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}

/** A query string value as the type its schema declares, so Ajv can check it. */
function coerceQueryValue(raw: string, schema: Schema): unknown {
  const type = schema.type ?? (schema.anyOf || schema.oneOf ? undefined : 'string');
  if (type === 'integer' || type === 'number')
    return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (type === 'array') return raw.split(',');
  if (!type) {
    const alternatives = ((schema.anyOf ?? schema.oneOf) as Schema[]) ?? [];
    if (alternatives.some((alternative) => alternative.type === 'number' || alternative.type === 'integer')) {
      if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    }
  }
  return raw;
}

/**
 * The smallest value the schema allows, with every nullable property, required
 * or not, set to null: what a provider may legitimately answer, for checking
 * that a step accepts it. Alternatives take the first; enums their first value.
 */
export function nullHeavyInstance(contract: OpenApiContract, schema: unknown, depth = 0): unknown {
  const resolved = contract.resolveSchema(schema);
  if (depth > 8) return null;
  const alternative = (resolved.oneOf ?? resolved.anyOf) as unknown[] | undefined;
  if (alternative?.length) return nullHeavyInstance(contract, alternative[0], depth + 1);
  if (Array.isArray(resolved.allOf)) {
    return Object.assign({}, ...resolved.allOf.map((part) => nullHeavyInstance(contract, part, depth + 1)));
  }
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  switch (resolved.type) {
    case 'object': {
      const properties = (resolved.properties ?? {}) as Record<string, unknown>;
      const required = new Set((resolved.required as string[] | undefined) ?? []);
      const instance: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        const inner = contract.resolveSchema(property);
        if (inner.nullable === true) instance[name] = null;
        else if (required.has(name)) instance[name] = nullHeavyInstance(contract, inner, depth + 1);
      }
      return instance;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/builder/api-contract.js';
import { builderOpenApiDocument } from '../../src/builder/openapi-document.js';
import { packageVersion } from '../../src/disk/package-root.js';

// biome-ignore lint/suspicious/noExplicitAny: the test walks a generated JSON document.
type Json = Record<string, any>;
const document = builderOpenApiDocument(packageVersion()) as Json;

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe('the builder API OpenAPI document', () => {
  it('is the committed builder-openapi.json (run npm run build when this fails)', () => {
    const committed = JSON.parse(readFileSync('builder-openapi.json', 'utf8'));
    expect(committed).toEqual(document);
  });

  it('is OpenAPI 3.1 with one operation per route, each operation id once', () => {
    expect(document.openapi).toBe('3.1.0');
    const ids = Object.values(document.paths as Json).flatMap((item) =>
      Object.values(item as Json).map((operation) => (operation as Json).operationId),
    );
    expect(ids.sort()).toEqual(ROUTES.map((route) => route.id).sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every reference to a component, and every component compiles as JSON Schema 2020-12', () => {
    const schemas = document.components.schemas as Json;
    for (const ref of refsIn(document)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'builder', components: document.components });
    for (const name of Object.keys(schemas)) {
      expect(() => ajv.getSchema(`builder#/components/schemas/${name}`), name).not.toThrow();
    }
  });

  it('needs the bearer token everywhere but the document itself and the OAuth callback', () => {
    const open = Object.values(document.paths as Json)
      .flatMap((item) => Object.values(item as Json) as Json[])
      .filter((operation) => Array.isArray(operation.security) && operation.security.length === 0)
      .map((operation) => operation.operationId);
    expect(open.sort()).toEqual(['oauthCallback', 'openApiDocument']);
  });
});

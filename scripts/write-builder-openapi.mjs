// Writes builder-openapi.json, the builder API's OpenAPI 3.1 document, from the
// compiled route table and zod schemas (dist/), so the package ships the same
// document the server answers at /v1/openapi.json. test/builder/openapi-document.test.ts
// fails when the committed copy is stale.
import { writeFileSync } from 'node:fs';
import { builderOpenApiDocument } from '../dist/src/builder/openapi-document.js';
import { packageVersion } from '../dist/src/disk/package-root.js';

writeFileSync(
  'builder-openapi.json',
  `${JSON.stringify(builderOpenApiDocument(packageVersion()), null, 2)}\n`,
);

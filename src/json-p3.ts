import { createRequire } from 'node:module';

/**
 * json-p3, the JSONPath engine, required rather than imported: its Node entry
 * is one 150 KB CommonJS file, and an ES import of CommonJS first scans the
 * whole source for export names, which cost a cold `toolsteps run` more
 * (20-40 ms) than loading and running the module. Import its values from
 * here; its types can still come from 'json-p3' itself.
 */
export const { JSONPathEnvironment, JSONPathError, FunctionExpressionType } = createRequire(import.meta.url)(
  'json-p3',
) as typeof import('json-p3');

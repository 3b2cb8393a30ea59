import { createRequire } from 'node:module';

let loaded: typeof import('json-p3') | undefined;

/**
 * json-p3, the JSONPath engine, required on first use rather than imported:
 * its Node entry is one large CommonJS file that most invocations never
 * need (their mappings are plain member paths, read without it, see
 * member-path.ts), and an ES import of CommonJS first scans the whole source
 * for export names, which was the largest item of a cold `toolsteps run`'s
 * profile when it was imported (docs/benchmarks.md, "Figures behind the code").
 * Its types can still come from 'json-p3' itself.
 */
export function jsonP3(): typeof import('json-p3') {
  loaded ??= createRequire(import.meta.url)('json-p3') as typeof import('json-p3');
  return loaded;
}

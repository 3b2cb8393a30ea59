import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every TypeScript file under a folder. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
function specifiersOf(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

const steps = path.resolve('steps');

describe('the sandbox keeps its own vocabulary', () => {
  it('finds every kind of import the scan relies on', () => {
    const sample = [
      "import { a } from '../steps/x.js';",
      'import type { B } from "../../steps/y.js";',
      "export { c } from '../steps/z.js';",
      "import '../steps/side-effect.js';",
      "const d = await import('../steps/lazy.js');",
    ].join('\n');
    expect(specifiersOf(sample)).toEqual([
      '../steps/x.js',
      '../../steps/y.js',
      '../steps/z.js',
      '../steps/side-effect.js',
      '../steps/lazy.js',
    ]);
  });

  it('no file under sandbox/ imports from steps/', () => {
    const files = sourcesUnder('sandbox');
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => target === steps || target.startsWith(`${steps}${path.sep}`))
        .map((target) => `${file} -> ${path.relative('.', target)}`),
    );
    expect(offenders).toEqual([]);
  });
});

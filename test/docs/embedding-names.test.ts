import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The embedding pages and their examples name package exports
 * (`toolsteps/ui`) and files (`dist/ui/toolsteps-ui.js`,
 * `node_modules/toolsteps/dist/ui/...`, `docs/examples/...`): an embedder
 * copies them as written, so each must be what the package has. A name that
 * drifted (`dist/ui/index.js`, `toolsteps/ui/toolsteps-ui.js` once did)
 * fails here with the page that names it.
 */
const PAGES = [
  'docs/embedding.md',
  'docs/embedding-quick-start.md',
  'docs/examples/embed.html',
  'docs/examples/react-builder.tsx',
  'README.md',
];

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  exports: Record<string, string | { types?: string; default: string }>;
  files: string[];
};

/** What an export resolves to in the package, `./dist/...` without its `./`. */
const exported = new Map(
  Object.entries(pkg.exports).map(([name, target]) => [
    name === '.' ? 'toolsteps' : `toolsteps/${name.slice(2)}`,
    (typeof target === 'string' ? target : target.default).replace(/^\.\//, ''),
  ]),
);

/** Whether the packed package holds `file` (the `files` list names it or a folder of it). */
const shipped = (file: string) =>
  pkg.files.some((entry) => file === entry || file.startsWith(`${entry.replace(/\/$/, '')}/`));

const textOf = (page: string) => readFileSync(page, 'utf8');

describe('the names the embedding docs give', () => {
  it('every toolsteps/… module they import or name is an export of the package', () => {
    const wrong: string[] = [];
    for (const page of PAGES) {
      const names = new Set<string>();
      for (const match of textOf(page).matchAll(/['"`](toolsteps(?:\/[\w.-]+)*)['"`]/g)) names.add(match[1]!);
      for (const match of textOf(page).matchAll(/`import ['"](toolsteps(?:\/[\w.-]+)*)['"]/g))
        names.add(match[1]!);
      for (const name of names) if (!exported.has(name)) wrong.push(`${page}: ${name}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every file of the package they name is shipped, and exists once built', () => {
    const wrong: string[] = [];
    for (const page of PAGES) {
      for (const match of textOf(page).matchAll(
        /(?:node_modules\/toolsteps\/)?\b(dist\/ui\/[\w./-]+\.(?:js|css|html))/g,
      )) {
        const file = match[1]!;
        if (!shipped(file)) wrong.push(`${page}: ${file} is not in package.json "files"`);
        else if (existsSync('dist') && !existsSync(file)) wrong.push(`${page}: ${file} is not built`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the table of what the package ships for a page matches the exports map', () => {
    for (const page of ['docs/embedding.md', 'docs/embedding-quick-start.md']) {
      const rows = [...textOf(page).matchAll(/^\| `(toolsteps\/ui[\w/]*)` \| `?(dist\/[\w./-]+)`?/gm)];
      expect(rows.length, page).toBeGreaterThan(0);
      for (const [, name, file] of rows)
        expect(`${name} -> ${exported.get(name!)}`).toBe(`${name} -> ${file}`);
    }
  });

  it('every repository file they name exists', () => {
    const wrong: string[] = [];
    for (const page of PAGES) {
      for (const match of textOf(page).matchAll(
        /\b((?:docs|test|ui|src|cli|scripts)\/[\w./-]+\.(?:md|ts|tsx|html|mjs|json))\b/g,
      )) {
        if (!existsSync(match[1]!)) wrong.push(`${page}: ${match[1]}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

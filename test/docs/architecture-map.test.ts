import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SRC_LAYERS } from '../support/src-layers.js';
import { candidatePaths, isPlaceholder, namedInDescription, readTreeMap } from '../support/tree-map.js';

/**
 * ARCHITECTURE.md's tree map is the newcomer's first picture of the house,
 * so it may not drift from the tree: every folder and file it names exists
 * (names in its descriptions too, from the entry's folder, one above it,
 * or the repository's root); every folder of the repository's top and of
 * src/ has an entry, and every folder inside one of src/'s is named, as an
 * entry or in a description. A folder that moves, appears or goes away
 * fails here until the map says so.
 */

const entries = readTreeMap('ARCHITECTURE.md', '## The tree');
const named = new Set(entries.flatMap((entry) => entry.paths));

/** Built, installed or hidden: not the house's own folders. */
const NOT_THE_HOUSE = new Set(['node_modules', 'dist']);

function folders(parent: string): string[] {
  return readdirSync(parent || '.', { withFileTypes: true })
    .filter((item) => item.isDirectory() && !item.name.startsWith('.') && !NOT_THE_HOUSE.has(item.name))
    .map((item) => `${parent}${item.name}/`);
}

function exists(repositoryPath: string): boolean {
  if (!existsSync(repositoryPath)) return false;
  return repositoryPath.endsWith('/') === statSync(repositoryPath).isDirectory();
}

describe('ARCHITECTURE.md, the tree', () => {
  it('reads the map', () => {
    expect(entries.length).toBeGreaterThan(20);
    expect([...named]).toEqual(expect.arrayContaining(['src/', 'src/kit/', 'steps/index.ts', 'test/']));
  });

  it('names only folders and files that exist', () => {
    const missing = entries.flatMap((entry) =>
      entry.paths
        .filter((name) => !isPlaceholder(name) && !exists(name))
        .map((name) => `line ${entry.line}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('names in its descriptions only folders and files that exist', () => {
    const missing: string[] = [];
    for (const entry of entries) {
      for (const owner of entry.paths.filter((name) => !isPlaceholder(name))) {
        for (const name of namedInDescription(entry.description)) {
          if (name.startsWith('dist/')) continue; // built, not kept
          if (!candidatePaths(owner, name).some(exists)) missing.push(`line ${entry.line}: ${name}`);
        }
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('has an entry for every folder at the top of the repository', () => {
    expect(folders('').filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('has an entry for every folder of src/', () => {
    expect(folders('src/').filter((folder) => !named.has(folder))).toEqual([]);
  });

  it("names every folder one level deeper in src/, as an entry or in its folder's description", () => {
    const mentioned = new Set(
      entries.flatMap((entry) =>
        entry.paths.flatMap((owner) =>
          namedInDescription(entry.description).flatMap((name) => candidatePaths(owner, name).filter(exists)),
        ),
      ),
    );
    const deeper = folders('src/').flatMap((folder) => folders(folder));
    expect(deeper.filter((folder) => !named.has(folder) && !mentioned.has(folder))).toEqual([]);
  });
});

/** The rows of the table under `heading` in ARCHITECTURE.md, as cells. */
function tableUnder(heading: string): string[][] {
  const text = readFileSync('ARCHITECTURE.md', 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  const next = text.indexOf('\n## ', start + 1);
  const lines = text.slice(start, next < 0 ? undefined : next).split('\n');
  return lines
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

const layerOf = (name: string) => SRC_LAYERS.findIndex((layer) => layer.includes(name));

/**
 * The layers a row of the table names: `4 | mapping/ peers/ disk/` is one
 * layer of three folders, `14-16 | agents/, then mcp/, then builder/` three
 * layers of one, `top | index.ts` the last.
 */
function layersOfRow([number = '', folders = '']: string[]): { numbers: number[]; layers: string[][] } {
  const names = [...folders.matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').replace(/\/$/, ''));
  const span = /^(\d+)-(\d+)$/.exec(number);
  if (!span) return { numbers: number === 'top' ? [] : [Number(number)], layers: [names] };
  const [first, last] = [Number(span[1]), Number(span[2])];
  return {
    numbers: Array.from({ length: last - first + 1 }, (_, index) => first + index),
    layers: names.map((name) => [name]),
  };
}

describe('ARCHITECTURE.md, Inside src/', () => {
  it("its table is the house rules' layers, lowest first, numbered in order", () => {
    const rows = tableUnder('## Inside src/: folders in layers').map(layersOfRow);
    expect(rows.flatMap((row) => row.layers)).toEqual(SRC_LAYERS);
    const numbers = rows.flatMap((row) => row.numbers);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    expect(rows.at(-1)?.layers).toEqual([['index.ts']]);
  });

  it("the tree map lists src/'s folders in the same order, from the bottom", () => {
    const listed = entries
      .flatMap((entry) => entry.paths)
      .filter((name) => /^src\/[^/]+\/?$/.test(name))
      .map((name) => name.slice('src/'.length).replace(/\/$/, ''));
    const order = listed.map(layerOf);
    expect(listed.filter((name) => layerOf(name) < 0)).toEqual([]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});

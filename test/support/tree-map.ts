import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One line of a tree map (the fenced block under a page's "The tree"
 * heading): the repository paths it names in its first column, and the
 * description beside them, continuation lines included.
 */
export interface TreeMapEntry {
  /** Repository paths, `src/kit/` or `steps/index.ts`; a folder ends with `/`. */
  readonly paths: readonly string[];
  readonly description: string;
  /** The line of the page the entry starts on, for messages. */
  readonly line: number;
}

/**
 * A name in the first column: a folder (`kit/`), a file (`index.ts`) or a
 * placeholder (`<integration>/`). Several may share a line, one space apart.
 */
const NAME = /^(?:<[\w-]+>|[\w.-]+)\/?$/;
/** Deeper than this, a line continues the description above it: names sit at two spaces a level. */
const MAX_NAME_INDENT = 10;

interface Open {
  readonly indent: number;
  readonly folder: string;
}

/**
 * The entries of the first fenced block after `heading` in `page`. A line
 * whose first column holds only names opens an entry, nested under the
 * nearest entry above it that is indented less; any other line continues
 * the description of the entry before it.
 */
export function readTreeMap(page: string, heading: string): TreeMapEntry[] {
  const lines = readFileSync(page, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  const open = lines.findIndex((line, index) => index > start && line.startsWith('```'));
  if (start < 0 || open < 0) throw new Error(`${page} has no fenced block under "${heading}"`);
  const entries: { paths: string[]; description: string[]; line: number }[] = [];
  const parents: Open[] = [];
  for (let index = open + 1; index < lines.length && !lines[index]?.startsWith('```'); index += 1) {
    const line = lines[index] ?? '';
    const indent = line.length - line.trimStart().length;
    const [column = '', ...rest] = line.trim().split(/\s{2,}/);
    const names = column.split(' ');
    if (line.trim() === '' || indent > MAX_NAME_INDENT || !names.every((name) => NAME.test(name))) {
      entries.at(-1)?.description.push(line.trim());
      continue;
    }
    while ((parents.at(-1)?.indent ?? -1) >= indent) parents.pop();
    const folder = parents.at(-1)?.folder ?? '';
    const paths = names.map((name) => folder + name);
    entries.push({ paths, description: rest, line: index + 1 });
    const nested = paths.find((entry) => entry.endsWith('/'));
    if (nested) parents.push({ indent, folder: nested });
  }
  return entries.map((entry) => ({ ...entry, description: entry.description.join(' ') }));
}

/** A placeholder path (`steps/<integration>/`) names a kind of folder, not one folder. */
export const isPlaceholder = (name: string): boolean => name.includes('<');

/**
 * The repository paths a description names: folders (`intake/`,
 * `test/support/`) and files (`runtime.ts`, `kit/index.ts`), but not
 * package subpaths (`toolsteps/kit`) or placeholders.
 */
export function namedInDescription(description: string): string[] {
  const prose = description.replace(/`[^`]*`/g, ' ');
  const folders = prose.match(/(?<![\w/.<>-])[a-z][\w-]*(?:\/[\w-]+)*\/(?=[\s,;:.)]|$)/gi) ?? [];
  const files = prose.match(/(?<![\w/.<>-])[\w-]+(?:\/[\w.-]+)*\.(?:ts|mjs|json|md)\b(?!\/)/g) ?? [];
  return [...folders, ...files];
}

/**
 * Where a name in an entry's description may be: in the entry's folder (a
 * file entry's own folder), in any folder above it (a sibling such as
 * `store/postgres/` beside `tenants/`), or at the repository's root.
 */
export function candidatePaths(entryPath: string, name: string): string[] {
  const folders: string[] = [];
  let folder = entryPath.endsWith('/') ? entryPath.slice(0, -1) : path.posix.dirname(entryPath);
  while (folder !== '.' && folder !== '') {
    folders.push(`${folder}/${name}`);
    folder = path.posix.dirname(folder);
  }
  return [...folders, name];
}

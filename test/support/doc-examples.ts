import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One ```ts block of the docs, as the file it stands for. */
export interface DocExample {
  /** The page it is on, e.g. `docs/sandbox.md`. */
  page: string;
  /** Its file within the page's folder: the path its first line names (`// notes/get-note.ts`), else `example-<n>.ts`. */
  file: string;
  code: string;
  /** Every bare module it imports (`toolsteps/kit`, `zod`, `node:http`, `ai`, ...). */
  packages: string[];
}

const BLOCK = /^```(ts[^\n]*)\n([\s\S]*?)^```/gm;
const NAMED_FILE = /^\/\/ ([\w./-]+\.ts)\n/;
const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"./][^'"]*)['"]/g;

/** The pages whose examples are checked: the README, every page of docs/ and of docs/agents/ (one per agent runtime). */
export function docPages(root = process.cwd()): string[] {
  const pagesOf = (folder: string) =>
    readdirSync(path.join(root, folder))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `${folder}/${name}`);
  return ['README.md', ...pagesOf('docs'), ...pagesOf('docs/agents')];
}

/**
 * Every ```ts block of `pages` that is meant to compile: a block whose info
 * string says `ts fragment` (a shape, an excerpt) is left out, so a page
 * says which of its examples are whole.
 */
export function docExamples(root = process.cwd(), pages = docPages(root)): DocExample[] {
  const examples: DocExample[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(root, page), 'utf8');
    let index = 0;
    for (const [, info, code] of text.matchAll(BLOCK)) {
      if (info?.trim() !== 'ts' || code === undefined) continue;
      index += 1;
      const file = NAMED_FILE.exec(code)?.[1] ?? `example-${index}.ts`;
      const packages = [...code.matchAll(BARE_IMPORT)].map((match) => match[1] as string);
      examples.push({ page, file, code, packages: [...new Set(packages)] });
    }
  }
  return examples;
}

/** A ```ts fragment that quotes a file of the repository: its first line names it (`// docs/examples/x/src/y.ts`). */
export interface DocExcerpt {
  page: string;
  /** The quoted file, from the repository's root. */
  file: string;
  /** The quoted lines, in runs: a `// ...` line between two runs stands for lines left out. */
  runs: string[][];
}

const QUOTED_FILE = /^\/\/ ((?:docs|src|steps|sandbox|cli|test)\/[\w./-]+\.ts)\n/;

/** Every fragment of `pages` that quotes a repository file, for a test that holds it to that file's text. */
export function docExcerpts(root = process.cwd(), pages = docPages(root)): DocExcerpt[] {
  const excerpts: DocExcerpt[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(root, page), 'utf8');
    for (const [, info, code] of text.matchAll(BLOCK)) {
      const file = info?.trim() === 'ts fragment' && code ? QUOTED_FILE.exec(code)?.[1] : undefined;
      if (!file || !code) continue;
      const runs: string[][] = [[]];
      for (const line of code.replace(QUOTED_FILE, '').trimEnd().split('\n')) {
        if (line.trim() === '// ...') runs.push([]);
        else runs.at(-1)?.push(line);
      }
      excerpts.push({ page, file, runs: runs.filter((run) => run.length) });
    }
  }
  return excerpts;
}

/** Where a page's examples are written: one folder per page, so relative imports stay within it. */
export function exampleFolder(example: Pick<DocExample, 'page'>): string {
  return example.page.replace(/\.md$/, '').replace(/[^\w-]+/g, '-');
}

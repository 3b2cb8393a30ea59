import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { docExcerpts } from '../support/doc-examples.js';

/**
 * Where a page quotes a file of the repository (a ```ts fragment whose first
 * line names it, as docs/writing-an-integration.md quotes the example
 * package), the quote is that file's text: each run of lines is in the file
 * as written, and the runs come in the file's order (a `// ...` line marks
 * what is left out). The package is compiled and run by its own test, so a
 * quote that drifted from it would show code nothing checks.
 */
it('every quoted excerpt of a repository file is that file, verbatim and in order', () => {
  const excerpts = docExcerpts();
  expect(excerpts.map((excerpt) => excerpt.page)).toContain('docs/writing-an-integration.md');
  const drifted: string[] = [];
  for (const { page, file, runs } of excerpts) {
    if (!existsSync(file)) {
      drifted.push(`${page}: ${file} does not exist`);
      continue;
    }
    const lines = readFileSync(file, 'utf8').split('\n');
    let from = 0;
    for (const run of runs) {
      const at = lines.findIndex(
        (_, start) => start >= from && run.every((line, offset) => lines[start + offset] === line),
      );
      if (at < 0) {
        drifted.push(`${page}: the lines from "${run[0]?.trim()}" are not in ${file} (after line ${from})`);
        break;
      }
      from = at + run.length;
    }
  }
  expect(drifted).toEqual([]);
});

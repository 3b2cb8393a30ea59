// Prints the longest functions under the given folders (default: src), counted
// in source lines from the first line of the declaration to its closing brace.
// Usage: node scripts/longest-functions.mjs [folder...] [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 10;
const folders = args.filter((arg, index) => !arg.startsWith('--') && index !== topIndex + 1);

function* sourceFiles(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const found = [];
for (const folder of folders.length ? folders : ['src']) {
  for (const file of sourceFiles(folder)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.end).line;
        const name = node.name?.getText(source) ?? '(anonymous)';
        found.push({ lines: end - start + 1, where: `${file}:${start + 1}`, name });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
found.sort((a, b) => b.lines - a.lines);
for (const entry of found.slice(0, top))
  console.log(`${String(entry.lines).padStart(4)}  ${entry.where}  ${entry.name}`);

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

/**
 * Relative imports of a module, static and dynamic (the CLI loads each
 * command's implementation with `await import()`), as repository paths of
 * their TypeScript sources.
 */
function relativeImports(file: string, source: string): string[] {
  const found = [...source.matchAll(/(?:\bfrom\s+|\bimport\(\s*)'(\.{1,2}\/[^']+)\.js'/g)];
  return found.map((match) => path.join(path.dirname(file), `${match[1]}.ts`));
}

/**
 * Compiles a few source files, and every module they import relatively, to
 * JavaScript under node_modules/.cache, so a child process (which has no
 * TypeScript loader) can run the real code. The output sits inside the
 * repository, so its imports of zod and the like resolve from the project's
 * node_modules. Test files that run at once pass their own `cache` folder, so
 * one never reads a module while the other rewrites it.
 */
export async function transpileForChild(files: string[], cache = 'toolsteps-child'): Promise<string> {
  const root = path.resolve('node_modules/.cache', cache);
  const pending = [...files];
  const done = new Set<string>();
  for (let file = pending.shift(); file !== undefined; file = pending.shift()) {
    if (done.has(file)) continue;
    done.add(file);
    const source = await readFile(path.resolve(file), 'utf8');
    pending.push(...relativeImports(file, source));
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const target = path.join(root, file.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output);
  }
  return root;
}

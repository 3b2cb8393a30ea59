import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

/**
 * Compiles a few source files to JavaScript under node_modules/.cache, so a
 * child process (which has no TypeScript loader) can run the real code.
 * The output sits inside the repository, so its imports of zod and the like
 * resolve from the project's node_modules.
 */
export async function transpileForChild(files: string[]): Promise<string> {
  const root = path.resolve('node_modules/.cache/toolsteps-child');
  for (const file of files) {
    const source = await readFile(path.resolve(file), 'utf8');
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const target = path.join(root, file.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output);
  }
  return root;
}

import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type DocExample, exampleFolder } from './doc-examples.js';

const run = promisify(execFile);
const repo = process.cwd();
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');

/** A strict NodeNext project of an embedder's, with Node's types and no DOM; `extra` adds or overrides. */
export function strictProject(extra: { compilerOptions?: Record<string, unknown>; [key: string]: unknown }) {
  return {
    ...extra,
    compilerOptions: {
      strict: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      lib: ['ES2022'],
      types: ['node'],
      typeRoots: [path.join(repo, 'node_modules/@types')],
      ...extra.compilerOptions,
    },
  };
}

/** Writes `tsconfig.json` into `folder` and compiles it: '' when clean, else tsc's report. */
export async function compileProject(
  folder: string,
  project: ReturnType<typeof strictProject>,
): Promise<string> {
  await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify(project));
  return run(process.execPath, [tsc, '-p', folder], { maxBuffer: 8 << 20 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

/** Writes each example as its file under `root`, one folder per page; `export {}` makes statements a module. */
export async function writeExamples(root: string, examples: readonly DocExample[]): Promise<void> {
  for (const example of examples) {
    const file = path.join(root, exampleFolder(example), example.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${example.code}\nexport {};\n`);
  }
}

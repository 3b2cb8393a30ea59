import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

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
 * node_modules/.cache, by its real path: where node_modules links to another
 * checkout's, Node reports the modules a child loads by their real paths, and
 * the tests that look for a module of theirs in that list name it the same way.
 */
export function childCache(): string {
  return path.join(realpathSync('node_modules'), '.cache');
}

type TypeScript = typeof import('typescript');
let typescript: Promise<TypeScript> | undefined;
/** Loaded on the first miss only: importing the compiler costs a second of CPU, a cache hit nothing. */
const loadTypeScript = () => (typescript ??= import('typescript').then((module) => module.default));
const TYPESCRIPT_VERSION: string = createRequire(import.meta.url)('typescript/package.json').version;
const TARGET = 'ES2022 ESNext';

/**
 * Where each source's JavaScript is kept, named by a hash of what makes it:
 * the source text, the compiler's version and the output settings. Test
 * files (in every worker, and every checkout sharing node_modules) compile
 * the same few hundred modules; each is compiled once and read back after.
 */
export const TRANSPILED = path.join(childCache(), 'toolsteps-transpiled');

async function transpiled(source: string): Promise<string> {
  const key = createHash('sha256').update(`${TYPESCRIPT_VERSION}\0${TARGET}\0${source}`).digest('hex');
  const cached = path.join(TRANSPILED, key.slice(0, 2), `${key}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // Not compiled yet (or by a run that was stopped mid-write: the rename below never happened).
  }
  const ts = await loadTypeScript();
  const output = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  await writeWhole(cached, output);
  return output;
}

/** Writes aside and renames: a reader (another test file's child, another worker) sees the whole file or none. */
export async function writeWhole(file: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(partial, content);
  await rename(partial, file);
}

/**
 * The JavaScript of `files` and of every module they import relatively, by
 * repository path, from the cache where it was compiled before.
 */
export async function compiledModules(files: string[]): Promise<Map<string, string>> {
  const pending = [...files];
  const outputs = new Map<string, string>();
  for (let file = pending.shift(); file !== undefined; file = pending.shift()) {
    if (outputs.has(file)) continue;
    const source = await readFile(path.resolve(file), 'utf8');
    outputs.set(file, '');
    pending.push(...relativeImports(file, source));
    outputs.set(file, await transpiled(source));
  }
  return outputs;
}

/** Writes compiled modules under node_modules/.cache/<cache>, each where its source is in the repository. */
export async function writeTree(outputs: Map<string, string>, cache: string): Promise<string> {
  const root = path.join(childCache(), cache);
  for (const [file, output] of outputs) {
    await writeWhole(path.join(root, file.replace(/\.ts$/, '.js')), output);
  }
  return root;
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
  return writeTree(await compiledModules(files), cache);
}

import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { docExamples, exampleFolder } from '../support/doc-examples.js';

const run = promisify(execFile);
const repo = process.cwd();
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');

/**
 * Every whole ```ts example of the README and docs/ compiles, strictly, as
 * an embedder's file: `toolsteps` and its subpaths resolve through the
 * package's own exports map to the built declarations (the folder is inside
 * the package, so Node's self-reference applies), peers from the project's
 * devDependencies. An example that drifts from the API fails here.
 * (test/package/published-package.test.ts checks those that need no peer
 * again, against the packed tarball, with skipLibCheck off.)
 */
it('compiles every whole TypeScript example of the README and docs/', async () => {
  const examples = docExamples(repo);
  expect(examples.length).toBeGreaterThan(5);
  const root = path.join(repo, 'node_modules/.cache/doc-examples');
  await rm(root, { recursive: true, force: true });
  for (const example of examples) {
    const file = path.join(root, exampleFolder(example), example.file);
    await mkdir(path.dirname(file), { recursive: true });
    // `export {}` makes a file of statements a module, where top-level await is allowed.
    await writeFile(file, `${example.code}\nexport {};\n`);
  }
  await writeFile(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022'],
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['**/*.ts'],
    }),
  );
  const checked = await run(process.execPath, [tsc, '-p', root], { maxBuffer: 8 << 20 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(checked).toBe('');
}, 120_000);

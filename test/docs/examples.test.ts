import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { docExamples } from '../support/doc-examples.js';
import { compileProject, strictProject, writeExamples } from '../support/strict-typescript.js';

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
  const examples = docExamples();
  expect(examples.length).toBeGreaterThan(5);
  const root = path.join(process.cwd(), 'node_modules/.cache/doc-examples');
  await rm(root, { recursive: true, force: true });
  await writeExamples(root, examples);
  const project = strictProject({
    compilerOptions: { skipLibCheck: true, noEmit: true },
    include: ['**/*.ts'],
  });
  expect(await compileProject(root, project)).toBe('');
}, 120_000);

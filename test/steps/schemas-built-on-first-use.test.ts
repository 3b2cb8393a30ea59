import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * Importing the catalogue builds none of its steps' zod schemas (issue 37):
 * a schema a step file or a shared module under steps/ builds at its top
 * level is built by every `import('toolsteps/steps')`, whether or not
 * anything reads it. So, outside any function, getter or method:
 *
 * - no call that starts at zod's namespace (`z.object(...)`, `z.string().min(1)`):
 *   a shared schema is `builtOnce(() => z.object(...))`, read as `Schema()`;
 * - no `input`, `output`, `event` or `setup` given as a value that calls
 *   anything: it is a getter, `get input() { return z.strictObject(...); }`.
 *
 * An integration's own file (`integration.ts`) too: its connection `fields`
 * is a getter. catalogue-import-builds-no-schema.test.ts runs the catalogue
 * and counts what its import builds, helpers and spreads included.
 */

const SCHEMA_PROPERTIES = new Set(['input', 'output', 'event', 'setup']);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The identifier a call chain starts at: `z` for `z.string().min(1).describe('...')`. */
function rootOf(expression: ts.Expression): ts.Expression {
  let root = expression;
  while (ts.isPropertyAccessExpression(root) || ts.isCallExpression(root)) root = root.expression;
  return root;
}

const containsCall = (node: ts.Node): boolean =>
  ts.isCallExpression(node) || (!ts.isFunctionLike(node) && ts.forEachChild(node, containsCall) === true);

/** Each place in `file` that builds a schema when the module is imported, as `file:line what`. */
function schemasBuiltAtImport(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    // What a function, getter or method holds runs when it is called, not at import.
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node)) {
      const root = rootOf(node.expression);
      // The outermost call of a chain, once: what it holds is the same schema.
      if (ts.isIdentifier(root) && root.text === 'z') {
        at(node, node.getText(source).replace(/\s+/g, ' ').slice(0, 60));
        return;
      }
    }
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      SCHEMA_PROPERTIES.has(node.name.text) &&
      containsCall(node.initializer)
    )
      at(node, `${node.name.text}: a value built at import, not a getter`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it('no module under steps/ builds a zod schema at its top level', () => {
  expect(sourceFiles('steps').flatMap(schemasBuiltAtImport)).toEqual([]);
});

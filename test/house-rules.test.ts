import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The rules of the house (DESIGN.md, "Layout" and "Conventions") as checks,
 * so a change that breaks one fails here with the place that broke it:
 * the runtime knows no provider, the sandbox never borrows the steps'
 * vocabulary, functions stay readable, and errors are never mutated.
 */

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) files.push(...sourceFiles(file));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(file);
  }
  return files;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Every relative import of a file, resolved to a repository path (`steps/ticketing/integration.ts`). */
function importsOf(file: string): string[] {
  const source = parse(file);
  const targets: string[] = [];
  const visit = (node: ts.Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      targets.push(path.normalize(path.join(path.dirname(file), specifier.text)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return targets;
}

const isCompositionRoot = (file: string) => file.startsWith(`src${path.sep}cli${path.sep}`);
const runtimeFiles = sourceFiles('src').filter((file) => !isCompositionRoot(file));

describe('house rules', () => {
  it('the runtime imports no step and no emulator (only the CLI composes them)', () => {
    const crossings = runtimeFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => /^(steps|sandbox)([/\\]|$)/.test(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('the runtime names no provider', () => {
    const named = runtimeFiles.flatMap((file) => {
      const match = readFileSync(file, 'utf8').match(/zendesk|vercel|lusha|firmable/i);
      return match ? [`${file}: ${match[0]}`] : [];
    });
    expect(named).toEqual([]);
  });

  it('the sandbox keeps its own vocabulary: it never imports the steps', () => {
    const crossings = sourceFiles('sandbox').flatMap((file) =>
      importsOf(file)
        .filter((target) => /^steps([/\\]|$)/.test(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('no function in src/ is longer than 80 lines', () => {
    const long: string[] = [];
    for (const file of sourceFiles('src')) {
      const source = parse(file);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const last = source.getLineAndCharacterOfPosition(node.end).line;
          if (last - first + 1 > 80) long.push(`${file}:${first + 1} is ${last - first + 1} lines`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });

  it('no error field is assigned after construction outside src/errors', () => {
    // An error means the same thing in every layer: a layer that learns more makes a new one.
    const errorFields =
      /^(code|status|retryable|retryAfterMs|sent|hint|credits|outcome|details|message|fields|issues|providerMessage|cause)$/;
    const errorLike = /(^|\.)(error|err|e|cause|failure|lookupError|thrown)$|\.details(\.|$)|^details$/;
    const assignments: string[] = [];
    const files = [...sourceFiles('src'), ...sourceFiles('steps')].filter(
      (file) => !/^src[/\\]errors(\.ts|[/\\])/.test(file),
    );
    for (const file of files) {
      const source = parse(file);
      const visit = (node: ts.Node) => {
        const target =
          ts.isBinaryExpression(node) &&
          node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
          node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
            ? node.left
            : ts.isDeleteExpression(node)
              ? node.expression
              : undefined;
        if (target && ts.isPropertyAccessExpression(target)) {
          const owner = target.expression.getText(source);
          if (errorFields.test(target.name.text) && errorLike.test(owner)) {
            const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
            assignments.push(`${file}:${line} ${node.getText(source).slice(0, 60)}`);
          }
        }
        if (ts.isCallExpression(node) && node.expression.getText(source) === 'Object.assign') {
          const first = node.arguments[0]?.getText(source) ?? '';
          if (errorLike.test(first)) {
            const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
            assignments.push(`${file}:${line} Object.assign(${first}, ...)`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(assignments).toEqual([]);
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC_LAYERS } from './support/src-layers.js';

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

/**
 * The layers of the house, lowest first: a file may import its own layer and the ones below.
 * ui/ (the browser's web components) sits beside cli/ at the top: nothing imports it (the CLI
 * serves its bundled files, never its modules), and it reaches src/ for types only.
 */
const LAYERS = ['src', 'sandbox', 'steps', 'cli', 'ui'] as const;
/** What each layer may never import, whatever the order says: the sandbox and the steps never meet. */
const FORBIDDEN: Record<(typeof LAYERS)[number], readonly string[]> = {
  src: ['cli', 'steps', 'sandbox', 'ui'],
  sandbox: ['steps', 'cli', 'ui'],
  steps: ['cli', 'sandbox', 'ui'],
  cli: ['ui'],
  ui: ['cli', 'steps', 'sandbox'],
};
const layerOf = (file: string) => file.split(/[/\\]/)[0] ?? '';
const runtimeFiles = sourceFiles('src');
const houseFiles = LAYERS.flatMap((layer) => sourceFiles(layer));
const KIT_ENTRY = path.join('src', 'kit', 'index.ts');

/** A relative import as the repository file it loads (`./x.js` -> `x.ts`, a folder -> its index). */
function resolved(target: string): string {
  if (target.endsWith('.js')) return target.replace(/\.js$/, '.ts');
  return target.endsWith('.ts') ? target : path.join(target, 'index.ts');
}

/** Every circle of imports among `files` (strongly connected groups of more than one file). */
function importCircles(files: string[]): string[][] {
  const edges = new Map(files.map((file) => [file, importsOf(file).map(resolved)]));
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file) ?? 0);
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return circles;
}

/** The part of src/ a path is in: its folder, or the loose file's name. */
const srcPartOf = (file: string) => path.relative('src', file).split(/[/\\]/)[0] ?? '';
const srcLayerOf = (part: string) => SRC_LAYERS.findIndex((layer) => layer.includes(part));

describe('house rules', () => {
  it('no layer imports from a layer above it: src < sandbox, steps < cli', () => {
    const crossings = houseFiles.flatMap((file) => {
      const forbidden = FORBIDDEN[layerOf(file) as (typeof LAYERS)[number]];
      return importsOf(file)
        .filter((target) => forbidden.includes(layerOf(target)))
        .map((target) => `${file} imports ${target}`);
    });
    expect(crossings).toEqual([]);
  });

  it('ui/ takes only types from src/, and only the builder API contract (src/builder): nothing of Node in the browser', () => {
    const reaching: string[] = [];
    for (const file of sourceFiles('ui')) {
      for (const statement of parse(file).statements) {
        if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
        const specifier = statement.moduleSpecifier;
        if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
        const target = path.normalize(path.join(path.dirname(file), specifier.text));
        if (layerOf(target) !== 'src') continue;
        const typeOnly = ts.isImportDeclaration(statement)
          ? statement.importClause?.isTypeOnly === true
          : statement.isTypeOnly;
        if (!typeOnly || !target.startsWith(path.join('src', 'builder')))
          reaching.push(`${file} imports ${target}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it("src/'s folders import only folders of lower layers (the table above; type imports count)", () => {
    const unplaced = readdirSync('src').filter((part) => srcLayerOf(part) < 0);
    expect(unplaced, 'every folder and loose file of src/ has a layer').toEqual([]);
    const upward = sourceFiles('src').flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const from = srcPartOf(file);
          const to = srcPartOf(target);
          return from !== to && srcLayerOf(to) >= srcLayerOf(from);
        })
        .map((target) => `${file} (${srcPartOf(file)}) imports ${target} (${srcPartOf(target)})`),
    );
    expect(upward).toEqual([]);
  });

  it('the house has no circle of imports (type imports count: they are part of the drawing)', () => {
    expect(importCircles(houseFiles)).toEqual([]);
  });

  it('every import that leaves steps/ goes to the kit entry, src/kit/index.ts', () => {
    const reaching = sourceFiles('steps').flatMap((file) =>
      importsOf(file)
        .filter((target) => layerOf(target) !== 'steps' && resolved(target) !== KIT_ENTRY)
        .map((target) => `${file} imports ${target}`),
    );
    expect(reaching).toEqual([]);
  });

  it('src/ keeps at most 8 loose files, and no file in src/ is over 250 lines', () => {
    const loose = readdirSync('src').filter((name) => name.endsWith('.ts'));
    expect(loose.length, loose.join(' ')).toBeLessThanOrEqual(8);
    const long = runtimeFiles
      .map((file) => [file, readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 250)
      .map(([file, lines]) => `${file} has ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('the runtime names no provider', () => {
    const named = runtimeFiles.flatMap((file) => {
      const match = readFileSync(file, 'utf8').match(/zendesk|vercel|lusha|firmable/i);
      return match ? [`${file}: ${match[0]}`] : [];
    });
    expect(named).toEqual([]);
  });

  it('no function in src/, cli/, steps/ or ui/ is longer than 80 lines', () => {
    const long: string[] = [];
    for (const file of [
      ...sourceFiles('src'),
      ...sourceFiles('cli'),
      ...sourceFiles('steps'),
      ...sourceFiles('ui'),
    ]) {
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

  it('no step declares write safety in the deprecated fields: each says it in one `replay` declaration', () => {
    // onReplay, alreadyDone, reconcile and checkHint outside a `replay: { mode, ... }` object.
    const deprecated = new Set(['onReplay', 'alreadyDone', 'reconcile', 'checkHint']);
    const found: string[] = [];
    for (const file of sourceFiles('steps')) {
      const source = parse(file);
      const visit = (node: ts.Node) => {
        if (ts.isObjectLiteralExpression(node)) {
          const names = node.properties.map((property) => property.name?.getText(source));
          if (!names.includes('mode')) {
            for (const property of node.properties) {
              const name = property.name?.getText(source);
              if (name === undefined || !deprecated.has(name)) continue;
              const line = source.getLineAndCharacterOfPosition(property.getStart(source)).line + 1;
              found.push(`${file}:${line} ${name}`);
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
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

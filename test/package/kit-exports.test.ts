import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * Every type the kit's exported signatures name is exported by the kit too,
 * so an outside author can name what they are handed (a `WebhookStatus` to
 * return, a `StepsOf` to type a helper). Read from the built declarations
 * (`npm run build` first), as an author's compiler reads them: each type
 * reference inside an exported declaration that resolves to a declaration of
 * this package must be one of the entry's exports.
 *
 * Two things are left out, each for its reason: the body of a type alias
 * (an author names the alias; the helpers it is built from are its own),
 * and the members of `Runtime`, which the kit exports only as the type a
 * step invokes through: it is the library's class, documented with the
 * entry `toolsteps` that exports it and its options (docs/library.md).
 */
const NOT_WALKED = new Set(['Runtime']);

it('exports every type its exported signatures name', () => {
  const entry = path.resolve('dist/types/src/kit/index.d.ts');
  const ours = path.resolve('dist/types');
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const resolved = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const exported = new Set(checker.getExportsOfModule(module).map(resolved));
  const missing = new Map<string, Set<string>>();

  function visit(node: ts.Node, owner: string): void {
    const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) return;
    if (ts.isTypeAliasDeclaration(node)) {
      for (const parameter of node.typeParameters ?? []) visit(parameter, owner);
      return;
    }
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isExpressionWithTypeArguments(node)
        ? node.expression
        : ts.isImportTypeNode(node)
          ? node.qualifier
          : undefined;
    const target = name && ts.isQualifiedName(name) ? name.right : name;
    const symbol = target && checker.getSymbolAtLocation(target);
    if (symbol) {
      const declared = resolved(symbol);
      const isOurs = declared.declarations?.some((d) => d.getSourceFile().fileName.startsWith(ours));
      if (isOurs && !(declared.flags & ts.SymbolFlags.TypeParameter) && !exported.has(declared)) {
        missing.set(declared.name, (missing.get(declared.name) ?? new Set()).add(owner));
      }
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  }
  for (const symbol of exported) {
    if (NOT_WALKED.has(symbol.name)) continue;
    for (const declaration of symbol.declarations ?? []) visit(declaration, symbol.name);
  }
  const report = [...missing].map(([type, owners]) => `${type} (named by ${[...owners].sort().join(', ')})`);
  expect(report.sort()).toEqual([]);
}, 120_000);

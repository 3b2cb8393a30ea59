import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

/**
 * Comments keep the why; the figures a choice was measured on live in
 * docs/benchmarks.md ("Figures behind the code"), with their day and
 * commit, where a stale one can be seen as stale. This catches the forms a
 * one-off measurement takes in a comment: a range of timings ("20-40 ms"),
 * "took" and a figure, and microsecond figures. A single number with a unit
 * is left to review: limits, defaults and provider rules are written that
 * way too ("Default 30 s", "the provider's 50 MB").
 */

const FOLDERS = ['src', 'cli', 'steps', 'sandbox', 'ui', 'scripts'];
const MEASUREMENT = [
  /(?<![\d^])\d[\d.,]*\s?(?:-|to)\s?\d[\d.,]*\s?(?:ms|µs|us|s|seconds)\b/,
  /\btook (?:about |some )?\d/,
  /\b\d[\d.,]*\s?(?:µs|us)\b/,
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const file = path.join(folder, item.name);
    if (item.isDirectory()) return sourceFiles(file);
    return /\.(?:ts|mts|mjs)$/.test(item.name) ? [file] : [];
  });
}

/**
 * Every comment of a file, with the line it starts on, from TypeScript's
 * scanner (a `/` where an expression may start is scanned again as a
 * regular expression, so a `//` inside one is not taken for a comment).
 */
function comments(file: string): { line: number; text: string }[] {
  const text = readFileSync(file, 'utf8');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: { line: number; text: string }[] = [];
  /** Open braces: `true` for a template's `${`, whose `}` goes back into the template. */
  const braces: boolean[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({
        line: text.slice(0, scanner.getTokenStart()).split('\n').length,
        text: scanner.getTokenText(),
      });
      continue;
    }
    if (token === ts.SyntaxKind.WhitespaceTrivia || token === ts.SyntaxKind.NewLineTrivia) continue;
    if (
      (token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) &&
      !endsOperand(previous)
    ) {
      token = scanner.reScanSlashToken();
    } else if (token === ts.SyntaxKind.OpenBraceToken || token === ts.SyntaxKind.TemplateHead) {
      braces.push(token === ts.SyntaxKind.TemplateHead);
    } else if (token === ts.SyntaxKind.CloseBraceToken && braces.pop()) {
      token = scanner.reScanTemplateToken(false);
      if (token === ts.SyntaxKind.TemplateMiddle) braces.push(true);
    }
    previous = token;
  }
  return found;
}

/** Whether a token can end an operand, so that a `/` after it divides rather than starts a pattern. */
function endsOperand(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.Identifier ||
    kind === ts.SyntaxKind.NumericLiteral ||
    kind === ts.SyntaxKind.StringLiteral ||
    kind === ts.SyntaxKind.CloseParenToken ||
    kind === ts.SyntaxKind.CloseBracketToken ||
    kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
    kind === ts.SyntaxKind.TemplateTail ||
    kind === ts.SyntaxKind.ThisKeyword
  );
}

it('no comment carries a one-off measurement (docs/benchmarks.md keeps them)', () => {
  const found: string[] = [];
  for (const file of FOLDERS.flatMap(sourceFiles)) {
    for (const comment of comments(file)) {
      // One line of prose, so a figure broken over two comment lines is still seen.
      const prose = comment.text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
      for (const pattern of MEASUREMENT) {
        const match = pattern.exec(prose);
        if (match) found.push(`${file}:${comment.line}: "${match[0]}" in "${prose.slice(0, 120)}"`);
      }
    }
  }
  expect(found).toEqual([]);
});

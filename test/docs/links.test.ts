import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs point at files that exist: every relative link (and the heading
 * its `#fragment` names), and every repository path written in `code`. A
 * file that moves without its docs fails here with the page that still
 * names it.
 */

const pages = [
  'README.md',
  'ARCHITECTURE.md',
  'bench/README.md',
  ...['docs', 'docs/agents'].flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(folder, name)),
  ),
];

/** The text of a page outside its fenced code blocks, where links and code spans are prose. */
function prose(page: string): string {
  return readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1] ?? '')));
}

/** Code spans that name a file or folder of the repository (placeholders such as `<integration>` excepted). */
const REPOSITORY_PATH = /^(src|cli|steps|sandbox|test|bench|scripts|contracts|docs)\/[\w./-]*$/;

describe('docs', () => {
  it('finds every page it checks', () => {
    expect(pages).toEqual(expect.arrayContaining(['docs/library.md', 'docs/writing-an-integration.md']));
  });

  it('every relative link points at an existing file, and its #fragment at a heading there', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const match of prose(page).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/i.test(target)) continue;
        const [file = '', fragment] = target.split('#');
        const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), file));
        if (!existsSync(resolved)) broken.push(`${page}: ${target} (no ${resolved})`);
        else if (fragment && resolved.endsWith('.md') && !anchors(resolved).has(fragment)) {
          broken.push(`${page}: ${target} (no heading #${fragment} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every repository path in `code` exists', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const match of prose(page).matchAll(/`([^`\n]+)`/g)) {
        const written = match[1] ?? '';
        if (!REPOSITORY_PATH.test(written)) continue;
        const found = existsSync(written) && (!written.endsWith('/') || statSync(written).isDirectory());
        if (!found) missing.push(`${page}: ${written}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

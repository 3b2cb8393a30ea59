import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts', 'vendor-openapi.mjs');
const VENDORED = ['zendesk-support.json', 'zendesk-webhooks.json', 'vercel.json'];

/** Runs the vendoring script with a source folder that does not exist: it may only check the copies. */
function checkWithoutSources(): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [script, join(tmpdir(), 'no-provider-descriptions-here'), '--check'],
    {
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('vendored provider descriptions (contracts/openapi)', () => {
  it('parse, are OpenAPI 3.0 and carry their provenance', () => {
    for (const name of VENDORED) {
      const document = JSON.parse(readFileSync(join(root, 'contracts', 'openapi', name), 'utf8'));
      expect(document.openapi).toMatch(/^3\.0\./);
      expect(document['x-provenance']).toMatchObject({
        repository: expect.stringMatching(/^[\w.-]+\/[\w.-]+$/),
        commit: expect.stringMatching(/^[0-9a-f]{7,40}$/),
        taken: expect.stringMatching(/^\d{4}-\d{2}$/),
        sourceFile: expect.any(String),
        extractedBy: 'scripts/vendor-openapi.mjs',
      });
      expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    }
  });

  it('the script checks the copies without the sources and finds them sound', () => {
    const { status, output } = checkWithoutSources();
    expect(output).toContain('checked the vendored files alone');
    expect(status).toBe(0);
  });

  it('every $ref in a copy resolves inside it (nothing was left behind)', () => {
    for (const name of VENDORED) {
      const text = readFileSync(join(root, 'contracts', 'openapi', name), 'utf8');
      const document = JSON.parse(text);
      for (const [, ref] of text.matchAll(/"\$ref": "#\/([^"]+)"/g)) {
        const target = (ref as string)
          .split('/')
          .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
        expect(target, `${name}: #/${ref}`).toBeDefined();
      }
    }
  });

  it('the check fails on a copy without provenance', () => {
    const folder = mkdtempSync(join(tmpdir(), 'vendored-'));
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, JSON.stringify({ openapi: '3.0.3', paths: { '/x': {} } }));
    const problems = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { vendoredProblems } from ${JSON.stringify(script)}; console.log(JSON.stringify(vendoredProblems(${JSON.stringify(broken)})));`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(problems)).toContain(`${broken}: x-provenance.commit is missing`);
  });
});

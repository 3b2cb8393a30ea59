import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restore, strip } from '../../scripts/published-manifest.mjs';

/** What a published copy of the package needs besides the code: a licence, no sources, no install script, its own manifest reachable. */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  license: string;
  files: string[];
  exports: Record<string, unknown>;
};

describe('the published package', () => {
  it('ships a LICENSE whose text is the licence package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const text = readFileSync('LICENSE', 'utf8');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Permission is hereby granted, free of charge');
    expect(pkg.files).toContain('LICENSE');
  });

  it('ships the built package only: no TypeScript sources, no maps', () => {
    for (const folder of ['src', 'cli', 'steps', 'sandbox', 'dist']) expect(pkg.files).not.toContain(folder);
    expect(pkg.files.some((entry) => entry.endsWith('.map') || entry.endsWith('.ts'))).toBe(false);
  });

  it('builds through prepare in a clone, and keeps that script out of the published manifest', async () => {
    const scripts = (pkg as unknown as { scripts: Record<string, string> }).scripts;
    expect(scripts.prepare).toBe('npm run build');
    expect(scripts.prepack).toMatch(/published-manifest\.mjs strip$/);
    expect(scripts.postpack).toMatch(/published-manifest\.mjs restore$/);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-manifest-'));
    const original = `${JSON.stringify({ name: 'x', scripts: { prepare: 'npm run build', test: 'vitest' } }, null, 2)}\n`;
    await writeFile(path.join(folder, 'package.json'), original);
    strip(folder);
    strip(folder); // a pack that died between strip and restore strips again from the original
    expect(JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')).scripts).toEqual({
      test: 'vitest',
    });
    restore(folder);
    expect(await readFile(path.join(folder, 'package.json'), 'utf8')).toBe(original);
    await rm(folder, { recursive: true });
  });

  it('packs manifest.json compact and puts the pretty one back after packing', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-manifest-'));
    const pretty = `${JSON.stringify({ steps: [{ id: 'a.b', title: 'B' }] }, null, 2)}\n`;
    await writeFile(path.join(folder, 'package.json'), '{"name":"x"}\n');
    await writeFile(path.join(folder, 'manifest.json'), pretty);
    strip(folder);
    expect(await readFile(path.join(folder, 'manifest.json'), 'utf8')).toBe(
      '{"steps":[{"id":"a.b","title":"B"}]}\n',
    );
    restore(folder);
    expect(await readFile(path.join(folder, 'manifest.json'), 'utf8')).toBe(pretty);
    await rm(folder, { recursive: true });
  });

  it('exports ./package.json, so tools can read the version through the exports map', () => {
    expect(pkg.exports['./package.json']).toBe('./package.json');
    const require = createRequire(import.meta.url);
    // Resolved through the package's own exports (self-reference by name).
    expect(require.resolve('toolsteps/package.json')).toMatch(/package\.json$/);
  });
});

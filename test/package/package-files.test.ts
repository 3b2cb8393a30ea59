import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePublishedForms } from '../../scripts/published-manifest.mjs';

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

  it('builds through prepare in a clone, refuses npm pack there, and keeps clone-only scripts out of the published manifest', async () => {
    const scripts = (pkg as unknown as { scripts: Record<string, string> }).scripts;
    expect(scripts.prepare).toBe('npm run build');
    expect(scripts.prepack).toBe('node scripts/refuse-pack-in-place.mjs');
    expect(scripts.postpack).toBeUndefined();
    expect(scripts['pack:staged']).toBe('node scripts/pack-package.mjs');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-manifest-'));
    const original = {
      name: 'x',
      scripts: { prepare: 'npm run build', prepack: 'node scripts/refuse-pack-in-place.mjs', test: 'vitest' },
    };
    await writeFile(path.join(folder, 'package.json'), `${JSON.stringify(original, null, 2)}\n`);
    writePublishedForms(folder);
    expect(JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')).scripts).toEqual({
      test: 'vitest',
    });
    await rm(folder, { recursive: true });
  });

  it('writes manifest.json compact in a staged copy, and refuses to write into the repository', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-manifest-'));
    const pretty = `${JSON.stringify({ steps: [{ id: 'a.b', title: 'B' }] }, null, 2)}\n`;
    await writeFile(path.join(folder, 'package.json'), '{"name":"x"}\n');
    await writeFile(path.join(folder, 'manifest.json'), pretty);
    writePublishedForms(folder);
    expect(await readFile(path.join(folder, 'manifest.json'), 'utf8')).toBe(
      '{"steps":[{"id":"a.b","title":"B"}]}\n',
    );
    await rm(folder, { recursive: true });
    const before = readFileSync('manifest.json', 'utf8');
    expect(() => writePublishedForms(process.cwd())).toThrowError(/npm run pack:staged/);
    expect(readFileSync('manifest.json', 'utf8')).toBe(before);
  });

  it('exports ./package.json, so tools can read the version through the exports map', () => {
    expect(pkg.exports['./package.json']).toBe('./package.json');
    const require = createRequire(import.meta.url);
    // Resolved through the package's own exports (self-reference by name).
    expect(require.resolve('toolsteps/package.json')).toMatch(/package\.json$/);
  });
});

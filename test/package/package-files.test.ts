import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** What a published copy of the package needs besides the code: a licence, maps, and its own manifest reachable. */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  license: string;
  files: string[];
  exports: Record<string, unknown>;
};
const build = JSON.parse(readFileSync('tsconfig.build.json', 'utf8')) as {
  compilerOptions: Record<string, unknown>;
};

describe('the published package', () => {
  it('ships a LICENSE whose text is the licence package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const text = readFileSync('LICENSE', 'utf8');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Permission is hereby granted, free of charge');
    expect(pkg.files).toContain('LICENSE');
  });

  it('builds source maps and declaration maps, and ships the sources they point at', () => {
    expect(build.compilerOptions).toMatchObject({
      sourceMap: true,
      declarationMap: true,
      inlineSources: true,
    });
    for (const folder of ['dist', 'src', 'cli', 'steps', 'sandbox']) expect(pkg.files).toContain(folder);
  });

  it('exports ./package.json, so tools can read the version through the exports map', () => {
    expect(pkg.exports['./package.json']).toBe('./package.json');
    const require = createRequire(import.meta.url);
    // Resolved through the package's own exports (self-reference by name).
    expect(require.resolve('toolsteps/package.json')).toMatch(/package\.json$/);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestTarget } from '../../cli/commands/manifest-command.js';
import { cli, jsonError } from './cli-harness.js';

describe('toolsteps manifest writes to the current project', () => {
  it('the default target is manifest.json in the current folder, wherever the package is installed', () => {
    expect(manifestTarget(undefined, '/home/me/project')).toBe(
      path.resolve('/home/me/project/manifest.json'),
    );
  });

  it('refuses a target inside node_modules, such as an installed copy of the package', () => {
    expect(() => manifestTarget('node_modules/toolsteps/manifest.json', '/home/me/project')).toThrowError(
      /node_modules/,
    );
    expect(() => manifestTarget(undefined, '/home/me/project/node_modules/toolsteps')).toThrowError(
      /node_modules/,
    );
  });

  it('--out writes where it is told, and nothing to node_modules', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-manifest-'));
    try {
      const target = path.join(folder, 'manifest.json');
      const written = await cli('manifest', '--out', target);
      expect(written.code).toBe(0);
      expect(JSON.parse(await readFile(target, 'utf8'))).toHaveProperty('steps');
      const refused = await cli('manifest', '--json', '--out', 'node_modules/toolsteps/manifest.json');
      expect(refused.code).toBe(2);
      expect(jsonError(refused).code).toBe('input_invalid');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

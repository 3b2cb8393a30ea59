import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * The cold-start benchmark run once per case on freshly compiled sources, so
 * the script cannot rot unnoticed. Its ratios are not asserted: timings on a
 * shared machine are not a test. Every case must run and be reported.
 */
describe('bench/cold-start.mjs', () => {
  it('runs every case once against a sandbox in another process and prints the table', async () => {
    const build = await transpileForChild(
      ['src/cli/main.ts', 'src/index.ts', 'sandbox/index.ts'],
      'toolsteps-cold-start-smoke',
    );
    const result = spawnSync(process.execPath, ['bench/cold-start.mjs', '--runs', '1', '--build', build], {
      encoding: 'utf8',
      timeout: 150_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    const cases = ['node -e 0', 'toolsteps --version', 'toolsteps --help', 'toolsteps search zendesk'];
    for (const name of [...cases, 'toolsteps run get_ticket_info']) {
      // Each case has its row: a median, a ratio to `node -e 0`, and a count of loaded files.
      expect(lines.find((line) => line.startsWith(`${name} `))).toMatch(
        / \d+\.\d +\d+\.\d\dx .* \d+ +\d+ *$/,
      );
    }
    expect(result.stdout).not.toContain('fails in this build');
  }, 180_000);
});

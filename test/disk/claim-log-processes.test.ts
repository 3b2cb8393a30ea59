import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ClaimLog } from '../../src/disk/claim-log.js';
import { ManualClock } from '../../src/model/clock.js';
import { useTempDir } from '../support/temp-dir.js';
import { transpileForChild } from '../support/transpile-for-child.js';

const run = promisify(execFile);
const dir = useTempDir('toolsteps-claim-log-processes-');
const nameOf = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * A child that claims `count` names (`e0` ...) in waves of 25 at once, with
 * generations of `rotateAt` bytes, and prints each name it won as soon as
 * it is decided; with `forever`, it starts again on fresh names until killed.
 */
async function claimer(): Promise<string> {
  const root = await transpileForChild(['src/disk/claim-log.ts'], 'toolsteps-claim-log');
  const script = path.join(root, `claimer-${process.pid}.mjs`);
  await writeFile(
    script,
    `
    import { createHash } from 'node:crypto';
    import { ClaimLog } from ${JSON.stringify(path.join(root, 'src/disk/claim-log.js'))};
    const [dir, count, rotateAt, forever] = process.argv.slice(2);
    const log = new ClaimLog(dir, { now: () => Date.now() }, { rotateAtBytes: Number(rotateAt) });
    const nameOf = (key) => createHash('sha256').update(key).digest('hex');
    for (let start = 0; forever || start < Number(count); start += 25) {
      await Promise.all(Array.from({ length: 25 }, async (_, index) => {
        const name = nameOf('e' + (forever ? start + index : (start + index) % Number(count)));
        if (await log.claim(name, 60_000)) process.stdout.write(name + '\\n');
      }));
    }
    `,
  );
  return script;
}

describe('claim log shared by processes', () => {
  it('gives every name one holder among four processes claiming the same names at once, across generations', async () => {
    const script = await claimer();
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() => run(process.execPath, [script, dir(), '400', '4096', ''])),
    );
    const won = outputs.flatMap(({ stdout }) => stdout.split('\n').filter(Boolean));
    expect(won.sort()).toEqual(Array.from({ length: 400 }, (_, index) => nameOf(`e${index}`)).sort());
    // Generations turned over while they raced: the first is long gone.
    const fresh = new ClaimLog(dir(), new ManualClock(Date.now()));
    expect(await fresh.claim(nameOf('e0'), 1_000)).toBeUndefined();
    expect(await fresh.claim(nameOf('e400'), 1_000)).toBeDefined();
  }, 60_000);

  it('after a kill -9 mid-batch, every claim the dead process was told it won stays held until its lease ends', async () => {
    const script = await claimer();
    const child = spawn(process.execPath, [script, dir(), '0', '65536', 'forever']);
    let printed = '';
    child.stdout.on('data', (chunk) => {
      printed += chunk;
    });
    await new Promise<void>((resolve) => {
      const look = setInterval(() => {
        if (printed.split('\n').length > 2_000) {
          clearInterval(look);
          resolve();
        }
      }, 5);
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const won = printed.split('\n').filter((line) => /^[0-9a-f]{64}$/.test(line));
    const clock = new ManualClock(Date.now());
    const after = new ClaimLog(dir(), clock);
    const again = await Promise.all(won.map((name) => after.claim(name, 1_000)));
    expect(again.filter(Boolean)).toEqual([]);
    clock.advance(60_001);
    const lapsed = await Promise.all(won.slice(0, 50).map((name) => after.claim(name, 1_000)));
    expect(lapsed.every(Boolean)).toBe(true);
  }, 60_000);
});

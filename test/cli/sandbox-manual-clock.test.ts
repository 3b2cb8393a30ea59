import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_HEADER } from '../../sandbox/index.js';
import { bundleForChild } from '../support/bundle-for-child.js';

/** `toolsteps sandbox` runs until interrupted, so it runs as the package ships it, in a child. */
let main: string;
beforeAll(async () => {
  ({ main } = await bundleForChild('toolsteps-cli-child'));
}, 120_000);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts the sandbox on any free port and answers its URL once it printed it. */
function startSandboxChild(...flags: string[]): Promise<string> {
  const child = spawn(process.execPath, [main, 'sandbox', '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const url = /listening at (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('control:')) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
}

const advance = (url: string, ms: number) =>
  fetch(`${url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONTROL_HEADER]: '1' },
    body: JSON.stringify({ advance_ms: ms }),
  });

describe('toolsteps sandbox --manual-clock', () => {
  it('keeps real time and moves on by what POST /_sandbox/clock asks (30 days here); without the flag the clock is refused', async () => {
    const manual = await startSandboxChild('--manual-clock');
    const moved = await advance(manual, 30 * 86_400_000);
    expect(moved.status).toBe(200);
    const { now } = (await moved.json()) as { now: number };
    expect(now).toBeGreaterThanOrEqual(Date.now() + 30 * 86_400_000 - 60_000);
    expect(now).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    const system = await startSandboxChild();
    const refused = await advance(system, 1000);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: 'clock_not_manual' });
  });
});

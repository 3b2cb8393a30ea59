import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execEvent } from '../../../cli/listen/exec-event.js';
import { alive } from '../../support/live-process.js';
import { startedEvent } from '../../triggers/trigger-fixtures.js';

const event = startedEvent;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-exec-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Whether `pid` is gone within a moment: SIGKILL lets a process run no more code, the kernel ends it just after. */
async function goneSoon(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 1_000 && alive(pid); waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

describe('--exec: the deadline holds for the whole process group', () => {
  it('runs the command with the event on stdin; a non-zero exit fails the hand-off', async () => {
    const out = path.join(dir, 'stdin.json');
    await execEvent(`cat > '${out}'`, event);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(event);
    await expect(execEvent('exit 3', event)).rejects.toThrow('exit code 3');
  });

  it('kills a command that ignores SIGTERM, and the grandchild it started, one grace after the deadline', async () => {
    const pids = path.join(dir, 'stubborn.pids');
    // The shell ignores TERM, and so does the sleep it starts (an ignored signal is inherited).
    const command = `trap '' TERM; sleep 60 & echo "$$ $!" > '${pids}'; wait; wait; sleep 60`;
    const started = Date.now();
    await expect(execEvent(command, event, { deadlineMs: 300, killGraceMs: 300 })).rejects.toMatchObject({
      code: 'timeout',
    });
    const took = Date.now() - started;
    const [shell, grandchild] = await pidsIn(pids);
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(3_000);
    expect(await goneSoon(shell as number)).toBe(true);
    expect(await goneSoon(grandchild as number)).toBe(true);
  }, 15_000);

  it('waits out the grace for a grandchild that traps TERM after its parent obeyed, then kills it', async () => {
    const pids = path.join(dir, 'orphan.pids');
    // The shell leaves on TERM at once; the grandchild traps it and would run on for a minute.
    const command = `sh -c 'trap "" TERM; sleep 60' & echo "$!" > '${pids}'; wait`;
    const started = Date.now();
    await expect(execEvent(command, event, { deadlineMs: 300, killGraceMs: 500 })).rejects.toMatchObject({
      code: 'timeout',
    });
    const took = Date.now() - started;
    const [grandchild] = await pidsIn(pids);
    expect(took).toBeGreaterThanOrEqual(750);
    expect(took).toBeLessThan(3_000);
    expect(await goneSoon(grandchild as number)).toBe(true);
  }, 15_000);

  it('stops the group when the hand-off is told to stop, before the deadline', async () => {
    const controller = new AbortController();
    const run = execEvent('sleep 60', event, {
      deadlineMs: 60_000,
      killGraceMs: 300,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(run).rejects.toMatchObject({ code: 'timeout' });
  }, 15_000);
});

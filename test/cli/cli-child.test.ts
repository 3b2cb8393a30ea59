import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { addSandboxTicketing, closeCliWorld, openCliWorld } from './cli-harness.js';

/**
 * What only a real process shows: standard input, and a reader that closes
 * the pipe early. The CLI runs as the package ships it (the bundle), in a
 * child process, against the sandbox this test starts, over real sockets.
 */

let main: string;
let home: string;
let sandbox: Sandbox;

beforeAll(async () => {
  ({ main } = await bundleForChild('toolsteps-cli-child'));
  ({ home, sandbox } = await openCliWorld('toolsteps-cli-child-'));
  const added = await addSandboxTicketing(sandbox, 'desk', 'TS_CHILD_TOKEN');
  expect(added.code).toBe(0);
}, 120_000);
afterAll(() => closeCliWorld({ home, sandbox }, 'TS_CHILD_TOKEN'));

interface Child {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** Runs the CLI in a child; `stdin` is written and closed; `closeAfterFirstChunk` plays `| head -c 1`. */
function child(
  args: string[],
  options: { stdin?: string; closeAfterFirstChunk?: boolean } = {},
): Promise<Child> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [main, ...args], {
      env: { ...process.env, TOOLSTEPS_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const result = { out: '', err: '' };
    proc.stdout.on('data', (chunk: Buffer) => {
      result.out += chunk.toString('utf8');
      if (options.closeAfterFirstChunk) proc.stdout.destroy();
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      result.err += chunk.toString('utf8');
    });
    proc.on('error', reject);
    proc.on('close', (code, signal) => resolve({ code, signal, ...result }));
    proc.stdin.end(options.stdin ?? '');
  });
}

describe('--input @- reads standard input', () => {
  it('a JSON input piped in runs the step', async () => {
    const input = JSON.stringify({ subject: 'From a pipe', description: 'Sent through stdin.' });
    const result = await child(
      ['run', 'ticketing.create_ticket', '--connection', 'desk', '--input', '@-', '--json'],
      {
        stdin: input,
      },
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).output.ticket).toMatchObject({ subject: 'From a pipe' });
  }, 60_000);

  it('empty or broken standard input is bad input (exit 2), nothing sent', async () => {
    const before = sandbox.server.requestLog.length;
    const result = await child(
      ['run', 'ticketing.create_ticket', '--connection', 'desk', '--input', '@-', '--json'],
      {
        stdin: '{"subject": ',
      },
    );
    expect(result.code).toBe(2);
    expect(JSON.parse(result.out).error).toMatchObject({ code: 'input_invalid' });
    expect(sandbox.server.requestLog.length).toBe(before);
  }, 60_000);
});

describe('output piped into a reader that stops early', () => {
  it('ends quietly with exit 0: no EPIPE stack', async () => {
    // The manifest is ~300 KB, several times a pipe's buffer, so the CLI is still writing when the pipe closes.
    const result = await child(['manifest', '--stdout'], { closeAfterFirstChunk: true });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out.length).toBeGreaterThan(0);
  }, 60_000);
});

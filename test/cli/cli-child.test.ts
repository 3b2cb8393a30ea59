import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

/**
 * Runs the CLI in a child; `stdin` is written and closed; `closeAfterFirstChunk` plays `| head -c 1`;
 * `node` options go before the script. `lingerMs` is how long the child lived after its last output.
 */
function child(
  args: string[],
  options: { stdin?: string; closeAfterFirstChunk?: boolean; node?: string[] } = {},
): Promise<Child & { lingerMs: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...(options.node ?? []), main, ...args], {
      env: { ...process.env, TOOLSTEPS_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const result = { out: '', err: '' };
    let lastOutput = performance.now();
    proc.on('exit', () => {
      lastOutput = performance.now() - lastOutput;
    });
    proc.stdout.on('data', (chunk: Buffer) => {
      lastOutput = performance.now();
      result.out += chunk.toString('utf8');
      if (options.closeAfterFirstChunk) proc.stdout.destroy();
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      result.err += chunk.toString('utf8');
    });
    proc.on('error', reject);
    proc.on('close', (code, signal) => resolve({ code, signal, ...result, lingerMs: lastOutput }));
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

describe('a one-shot run goes on node:http', () => {
  it('loads neither undici nor fetch, and exits as soon as it has printed', async () => {
    // Which built-in and package files the child loaded, written as it exits.
    const loaded = path.join(home, 'loaded.json');
    const probe = path.join(home, 'probe-loaded.cjs');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)},` +
        ' JSON.stringify([...process.moduleLoadList, ...Object.keys(require.cache)])));',
    );
    const before = sandbox.server.requestLog.length;
    const result = await child(
      ['run', 'ticketing.get_ticket_info', '--connection', 'desk', '--input', '{"ticket_id":1}', '--json'],
      { node: ['--require', probe] },
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).output.ticket).toMatchObject({ id: 1 });
    // get_ticket_info asks for the ticket and its comments.
    expect(sandbox.server.requestLog.length).toBe(before + 2);
    const files = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(files).toContain('NativeModule _http_client');
    // Node's bundled undici (fetch) and its streams, or the undici package.
    expect(files.filter((file) => /undici|webstreams\/readablestream/.test(file))).toEqual([]);
    // A kept-alive socket the sandbox would hold for 5 s must not hold the process: Node unrefs a free one.
    expect(result.lingerMs).toBeLessThan(1_000);
  }, 60_000);
});

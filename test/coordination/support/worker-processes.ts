import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { transpileForChild } from '../../support/transpile-for-child.js';

/** A fresh 32-byte key in base64, as TOOLSTEPS_ENCRYPTION_KEY takes it. */
export const newEncryptionKey = () => randomBytes(32).toString('base64');

export interface WorkerResult {
  pid: number;
  ok: number;
  failed: number;
  errors: Record<string, number>;
  won: string[];
}

export interface RunningWorker {
  child: ChildProcess;
  /** The worker's JSON line; rejects when it exits without one (killed, crashed). */
  result: Promise<WorkerResult>;
  /** What it printed so far. */
  output(): string;
}

/** The child the coordination tests start: a runtime over the Redis store and coordinator (see the file). */
const WORKER_ENTRY = 'test/coordination/support/coordination-worker.ts';

/** Compiles the worker and what it imports, once per test file (its own cache folder); returns the script to start. */
export async function compiledWorker(cache: string): Promise<string> {
  const root = await transpileForChild([WORKER_ENTRY], cache);
  return path.join(root, WORKER_ENTRY.replace(/\.ts$/, '.js'));
}

/** Starts `node script` with `env` added; collects its last stdout line as JSON. */
export function startChild(script: string, env: Record<string, string>, args: string[] = []): RunningWorker {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const result = new Promise<WorkerResult>((resolve, reject) => {
    child.on('close', (code, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as WorkerResult);
      else reject(new Error(`worker ${child.pid} ended (${signal ?? code}): ${stderr.slice(-2000)}`));
    });
  });
  return { child, result, output: () => stdout };
}

/** Polls `check` every 50 ms until it holds, or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Every value in the Redis database as text (strings, hashes, sets, lists,
 * sorted sets, streams), to prove no secret lies there in clear.
 */
export async function everyRedisValue(url: string): Promise<string[]> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const values: string[] = [];
  try {
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      values.push(key);
      if (type === 'string') values.push((await client.get(key)) ?? '');
      else if (type === 'hash') values.push(...Object.entries(await client.hgetall(key)).flat());
      else if (type === 'set') values.push(...(await client.smembers(key)));
      else if (type === 'list') values.push(...(await client.lrange(key, 0, -1)));
      else if (type === 'zset') values.push(...(await client.zrange(key, 0, -1)));
      else if (type === 'stream') values.push(JSON.stringify(await client.xrange(key, '-', '+')));
      else values.push(`<${type}>`);
    }
  } finally {
    client.disconnect();
  }
  return values;
}

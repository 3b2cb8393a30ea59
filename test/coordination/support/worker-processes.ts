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

/** A child process and what it has printed so far, collected as it comes. */
export interface CapturedChild {
  child: ChildProcess;
  stdout: string;
  stderr: string;
}

/** `node script args` with `env` as its whole environment, its output collected on the returned object. */
export function spawnCaptured(script: string, args: string[], env: NodeJS.ProcessEnv): CapturedChild {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const captured: CapturedChild = { child, stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    captured.stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    captured.stderr += chunk.toString();
  });
  return captured;
}

/** Starts `node script` with `env` added; collects its last stdout line as JSON. */
export function startChild(script: string, env: Record<string, string>, args: string[] = []): RunningWorker {
  const captured = spawnCaptured(script, args, { ...process.env, ...env });
  const { child } = captured;
  const result = new Promise<WorkerResult>((resolve, reject) => {
    child.on('close', (code, signal) => {
      const last = captured.stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as WorkerResult);
      else
        reject(new Error(`worker ${child.pid} ended (${signal ?? code}): ${captured.stderr.slice(-2000)}`));
    });
  });
  return { child, result, output: () => captured.stdout };
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
 * Every key in the Redis database under `prefix` (all of them by default) and
 * every value held in it as text (strings, hashes, sets, lists, sorted sets,
 * streams), to prove no secret lies there in clear.
 */
export async function everyRedisValue(url: string, prefix = ''): Promise<string[]> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const values: string[] = [];
  try {
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
      for (const key of keys as string[]) values.push(key, ...(await valuesOf(client, key)));
    }
  } finally {
    client.disconnect();
  }
  return values;
}

/** What `key` holds, as text. */
async function valuesOf(client: Redis, key: string): Promise<string[]> {
  const type = await client.type(key);
  if (type === 'string') return [(await client.get(key)) ?? ''];
  if (type === 'hash') return Object.entries(await client.hgetall(key)).flat();
  if (type === 'set') return client.smembers(key);
  if (type === 'list') return client.lrange(key, 0, -1);
  if (type === 'zset') return client.zrange(key, 0, -1);
  if (type === 'stream') return [JSON.stringify(await client.xrange(key, '-', '+'))];
  return [`<${type}>`];
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';
import { redisAnswers } from './test-redis.js';

/** A redis-server of a test's own, on a spare port: the test may kill it (never the shared one on 6379). */
export interface OwnRedis {
  url: string;
  port: number;
  /** Its working folder (an append-only log lands here). */
  dir: string;
  /** The running redis-server (a new one after `restart`). */
  readonly process: ChildProcess;
  /** SIGKILL, no goodbye: what a crash or an OOM kill looks like to the clients. */
  kill(): Promise<void>;
  /** SIGTERM, as an operator's restart stops it: it finishes its append-only log on the way down. */
  stop(): Promise<void>;
  /**
   * After `kill` or `stop`, starts it again on the same port and folder: with `aof` it
   * comes back with every write it acknowledged, with `none` empty. Resolves once it answers.
   */
  restart(): Promise<void>;
  /** Kills it if alive and removes its folder. */
  close(): Promise<void>;
}

/**
 * Starts `redis-server` on a free loopback port in a temporary folder, with
 * the persistence asked for: `none` (`--save '' --appendonly no`, a restart
 * forgets everything) or `aof` (`--appendonly yes`), and a password when
 * given (then in `url`). Resolves once it answers.
 */
export async function startOwnRedis(
  persistence: 'none' | 'aof',
  options: { password?: string } = {},
): Promise<OwnRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-own-redis-'));
  const port = await freePort();
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  const url = `redis://${auth}127.0.0.1:${port}/0`;
  let child: ChildProcess;
  let exited: Promise<void>;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const kill = () => end('SIGKILL');
  const start = async () => {
    child = spawnRedisServer(port, dir, persistence, options.password);
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    for (let tries = 0; !(await redisAnswers(url)); tries += 1) {
      if (tries > 300 || child.exitCode !== null) {
        await kill();
        throw new Error(`redis-server on port ${port} did not start`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await start();
  return {
    url,
    port,
    dir,
    get process() {
      return child;
    },
    kill,
    stop: () => end('SIGTERM'),
    restart: start,
    close: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `redis-server` on loopback `port`, working in `dir`, never saving snapshots:
 * with `aof` it writes each write to its log before answering (Redis
 * flushes the log before replies; it fsyncs once a second, which only a lost
 * machine, not a killed process, could undo), so a restart in the same folder
 * keeps what was acknowledged; with `none` a restart forgets everything.
 * It answers a moment after it starts; `startOwnRedis` waits for that.
 */
export function spawnRedisServer(
  port: number,
  dir: string,
  persistence: 'none' | 'aof',
  password?: string,
): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      persistence === 'aof' ? 'yes' : 'no',
      ...(password ? ['--requirepass', password] : []),
    ],
    { cwd: dir, stdio: 'ignore' },
  );
}

import { afterEach, beforeAll } from 'vitest';
import { type CapturedChild, spawnCaptured, waitFor } from '../../coordination/support/worker-processes.js';
import { bundleForChild } from '../../support/bundle-for-child.js';

/** Starts `toolsteps` commands as the package ships them, for the tests of one file. */
export interface CliListeners {
  /** `toolsteps <args>` in a child, with `env` added and Redis unset unless `env` sets it. */
  toolsteps(env: Record<string, string>, ...args: string[]): CapturedChild;
  /** Starts `toolsteps listen --port 0 --json ...`; returns the process and its base URL. */
  listen(env: Record<string, string>, ...flags: string[]): Promise<{ process: CapturedChild; base: string }>;
}

/**
 * The bundled CLI for the enclosing file (bundled once, under `cache`), and
 * every child it started killed with -9 after each test.
 */
export function useCliListeners(cache: string): CliListeners {
  let main: string;
  const running: CapturedChild[] = [];

  beforeAll(async () => {
    ({ main } = await bundleForChild(cache));
  }, 120_000);

  afterEach(() => {
    for (const item of running.splice(0)) item.child.kill('SIGKILL');
  });

  function toolsteps(env: Record<string, string>, ...args: string[]): CapturedChild {
    const base = { ...process.env };
    for (const name of ['TOOLSTEPS_REDIS_URL', 'TOOLSTEPS_REDIS_PREFIX', 'TOOLSTEPS_HOME']) delete base[name];
    const started = spawnCaptured(main, args, { ...base, ...env });
    running.push(started);
    return started;
  }

  async function listen(env: Record<string, string>, ...flags: string[]) {
    const started = toolsteps(env, 'listen', '--port', '0', '--json', ...flags);
    await waitFor(() => started.stderr.includes('"listening"'), 'the listener to start', 60_000);
    const line = started.stderr.split('\n').find((text) => text.includes('"listening"')) as string;
    return { process: started, base: (JSON.parse(line) as { listening: { url: string } }).listening.url };
  }

  return { toolsteps, listen };
}

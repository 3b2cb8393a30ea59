import { afterAll } from 'vitest';

/**
 * Run before each test file of the `shared` project (vitest.config.ts),
 * whose files follow one another in a worker process that stays: whatever a
 * file leaves in the process's environment or exit code is put back when
 * it ends, so the next file starts from what the worker started with.
 */
const environment = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) {
    if (!(name in environment)) delete process.env[name];
  }
  Object.assign(process.env, environment);
  process.exitCode = undefined;
});

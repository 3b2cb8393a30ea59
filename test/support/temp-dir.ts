import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A fresh folder in the system's temporary one, named from `prefix`, for
 * each test of the enclosing describe (or one for all of them, with
 * `scope: 'all'`), deleted with all it holds after. Returns where the
 * current one is: read it inside hooks and tests.
 */
export function useTempDir(prefix: string, scope: 'each' | 'all' = 'each'): () => string {
  let dir = '';
  (scope === 'all' ? beforeAll : beforeEach)(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  (scope === 'all' ? afterAll : afterEach)(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return () => dir;
}

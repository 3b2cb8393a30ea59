import { chmod, cp, mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

/**
 * The stores written by the code before tenants (test/fixtures/pre-tenants,
 * made by its write-fixture.mjs at commit 7f5f25f), loaded for a test: the
 * file store copied to a fresh home (git keeps no 0600/0700 modes, so they
 * are put back as the store wrote them), the Redis dump written under a
 * prefix of the test's own.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pre-tenants');

/** The master key the dump was sealed with (a published test key). */
export const FIXTURE_KEY = 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
/** The key prefix the dump was written under: its seals bind it. */
export const FIXTURE_PREFIX = 'pretenants';
export const FIXTURE_SUBSCRIPTION = 'sub_00fixture0000000000';
export const FIXTURE_DEDUPE_KEY = 'sub_00fixture0000000000:evt-handled-before-tenants';

async function restoreModes(folder: string): Promise<void> {
  await chmod(folder, 0o700);
  for (const name of await readdir(folder)) {
    const inside = path.join(folder, name);
    if ((await stat(inside)).isDirectory()) await restoreModes(inside);
    else await chmod(inside, 0o600);
  }
}

/** A copy of the pre-tenant file store, as its own TOOLSTEPS_HOME. */
export async function preTenantHome(): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-pre-tenants-'));
  await cp(path.join(FIXTURE, 'home'), home, { recursive: true });
  await restoreModes(home);
  return home;
}

type Dumped =
  | { type: 'hash'; value: Record<string, string> }
  | { type: 'set'; value: string[] }
  | { type: 'string'; value: string };

/** Writes the pre-tenant Redis dump under `prefix` in the database at `url`. */
export async function loadPreTenantRedis(url: string, prefix: string): Promise<void> {
  const dump = JSON.parse(await readFile(path.join(FIXTURE, 'redis-dump.json'), 'utf8')) as Record<
    string,
    Dumped
  >;
  const client = new Redis(url);
  try {
    for (const [name, entry] of Object.entries(dump)) {
      const key = `${prefix}:${name}`;
      if (entry.type === 'hash') await client.hset(key, entry.value);
      else if (entry.type === 'set') await client.sadd(key, ...entry.value);
      else await client.set(key, entry.value);
    }
  } finally {
    client.disconnect();
  }
}

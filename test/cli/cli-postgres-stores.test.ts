import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/postgres/migrations/schema-migrations.js';
import { newEncryptionKey } from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { bundledCliProcess } from '../support/bundled-cli-process.js';
import {
  asSuperuser,
  type OwnDatabase,
  ownDatabase,
  postgresSuiteEnabled,
} from '../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();

interface Check {
  name: string;
  status: string;
  summary: string;
}

/**
 * The CLI as it ships (one bundle, pg loaded from outside it) with
 * TOOLSTEPS_DATABASE_URL: refused until `db migrate` ran, then keeping
 * connections in Postgres, sealed, and reporting the database in `doctor`.
 */
describe.skipIf(!enabled)('the CLI with TOOLSTEPS_DATABASE_URL (Postgres)', () => {
  let main: string;
  let home: string;
  let database: OwnDatabase;
  const key = newEncryptionKey();
  const accessToken = `tkt_at_${newEncryptionKey()}`;
  const toolsteps = (args: string[], env: Record<string, string | undefined> = {}) =>
    bundledCliProcess(main, () => ({
      TOOLSTEPS_HOME: home,
      TOOLSTEPS_DATABASE_URL: database.url,
      TOOLSTEPS_REDIS_URL: undefined,
      TOOLSTEPS_ENCRYPTION_KEY: key,
      T_ACCESS: accessToken,
    }))(args, env);
  const checkNamed = (out: string, name: string) =>
    (JSON.parse(out) as { checks: Check[] }).checks.find((check) => check.name === name);

  beforeAll(async () => {
    database = await ownDatabase('cli');
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-cli-postgres-'));
    ({ main } = await bundleForChild('toolsteps-cli-postgres'));
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await database?.drop();
  });

  it('before db migrate: commands are refused with the command to run, and doctor fails the database', async () => {
    const listed = await toolsteps(['connections', 'list', '--json']);
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.out).error).toMatchObject({
      code: 'schema_outdated',
      context: { problem: 'missing', found: 0 },
    });
    expect(JSON.parse(listed.out).error.message).toContain('toolsteps db migrate');
    const doctor = await toolsteps(['doctor', '--json']);
    expect(doctor.code).toBe(1);
    expect(checkNamed(doctor.out, 'database')).toMatchObject({ status: 'fail' });
    expect(checkNamed(doctor.out, 'database')?.summary).toContain('toolsteps db migrate');
  });

  it('db migrate applies every migration once, needing no key; run again it applies nothing', async () => {
    const first = await toolsteps(['db', 'migrate', '--json'], { TOOLSTEPS_ENCRYPTION_KEY: undefined });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({
      applied: MIGRATIONS.map(({ version }) => ({ version })),
      version: SCHEMA_VERSION,
    });
    const again = await toolsteps(['db', 'migrate']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Nothing to apply');
  });

  it('connections live in Postgres, sealed; listed with or without the key; doctor says all is well', async () => {
    const added = await toolsteps([
      'connections',
      'add',
      'ticketing',
      '--id',
      'pg-acme',
      '--subdomain',
      'acme',
      '--access-token-env',
      'T_ACCESS',
    ]);
    expect(added).toMatchObject({ code: 0 });
    expect(existsSync(path.join(home, 'connections', 'pg-acme.json'))).toBe(false);
    const rows = await asSuperuser(database.name, 'SELECT * FROM toolsteps.connections');
    expect(JSON.stringify(rows.rows)).toContain('pg-acme');
    expect(JSON.stringify(rows.rows)).not.toContain(accessToken);
    const withKey = await toolsteps(['connections', 'list', '--json']);
    expect(JSON.parse(withKey.out)).toEqual([
      expect.objectContaining({ id: 'pg-acme', integration: 'ticketing' }),
    ]);
    const withoutKey = await toolsteps(['connections', 'list', '--json'], {
      TOOLSTEPS_ENCRYPTION_KEY: undefined,
    });
    // Nothing sealed is opened without the key; a connection without a client id cannot refresh anyway.
    expect(JSON.parse(withoutKey.out)).toEqual([
      {
        id: 'pg-acme',
        integration: 'ticketing',
        label: null,
        fields: { subdomain: 'acme' },
        state: 'ok',
        refreshable: false,
      },
    ]);
    const table = await toolsteps(['connections', 'list'], { TOOLSTEPS_ENCRYPTION_KEY: undefined });
    expect(table.err).toContain(
      'TOOLSTEPS_ENCRYPTION_KEY is not set: listed from the public fields in Redis or Postgres',
    );
    const doctor = await toolsteps(['doctor', '--json']);
    // The test's role is a plain one: row-level security applies to it.
    expect(checkNamed(doctor.out, 'database')).toMatchObject({ status: 'ok' });
    expect(checkNamed(doctor.out, 'database')?.summary).toContain(
      `schema version ${SCHEMA_VERSION}, row-level security on`,
    );
    for (const result of [added, withKey, withoutKey, table, doctor]) {
      expect(result.out + result.err).not.toContain(accessToken);
    }
  });
});

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
  ownTwoRoleDatabase,
  postgresSuiteEnabled,
  type TwoRoleDatabase,
} from '../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();

interface Check {
  name: string;
  status: string;
  summary: string;
}

/** The CLI bundle both suites run, built once for the file. */
let bundled: Promise<string> | undefined;
const cliMain = () => (bundled ??= bundleForChild('toolsteps-cli-postgres').then(({ main }) => main));

/**
 * For a describe block: a TOOLSTEPS_HOME of its own, the bundle, and the
 * CLI as a process with `base()` (read per run) over them and `env` over that.
 */
function useCli(base: () => Record<string, string | undefined>) {
  const cli = { main: '', home: '' };
  beforeAll(async () => {
    cli.home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-cli-postgres-'));
    cli.main = await cliMain();
  }, 120_000);
  afterAll(() => rm(cli.home, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    bundledCliProcess(cli.main, () => ({
      TOOLSTEPS_HOME: cli.home,
      TOOLSTEPS_REDIS_URL: undefined,
      ...base(),
    }))(args, env);
  return { run, home: () => cli.home };
}

/** The check `name` in `doctor --json`'s output. */
const checkNamed = (out: string, name: string) =>
  (JSON.parse(out) as { checks: Check[] }).checks.find((check) => check.name === name);

/**
 * The CLI as it ships (one bundle, pg loaded from outside it) with
 * TOOLSTEPS_DATABASE_URL: refused until `db migrate` ran, then keeping
 * connections in Postgres, sealed, and reporting the database in `doctor`.
 */
describe.skipIf(!enabled)('the CLI with TOOLSTEPS_DATABASE_URL (Postgres)', () => {
  let database: OwnDatabase;
  const key = newEncryptionKey();
  const accessToken = `tkt_at_${newEncryptionKey()}`;
  const cli = useCli(() => ({
    TOOLSTEPS_DATABASE_URL: database.url,
    TOOLSTEPS_ENCRYPTION_KEY: key,
    T_ACCESS: accessToken,
  }));
  const toolsteps = cli.run;

  beforeAll(async () => {
    database = await ownDatabase('cli');
  }, 120_000);
  afterAll(async () => {
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
  }, 120_000);

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
  }, 120_000);

  it('connections live in Postgres, sealed; listed with or without the key; doctor warns that the role owns the tables', async () => {
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
    expect(existsSync(path.join(cli.home(), 'connections', 'pg-acme.json'))).toBe(false);
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
        // Read from the public part (token ends, what was last recorded): no secret is needed for it.
        health: { state: 'healthy', checkedAt: expect.any(String) },
      },
    ]);
    const table = await toolsteps(['connections', 'list'], { TOOLSTEPS_ENCRYPTION_KEY: undefined });
    expect(table.err).toContain(
      'TOOLSTEPS_ENCRYPTION_KEY is not set: listed from the public fields in Redis or Postgres',
    );
    const doctor = await toolsteps(['doctor', '--json']);
    // The test's role is a plain one, so row-level security applies to it; but it migrated, so it owns
    // the tables and could turn the policies off (the two-role setup is cli-postgres-roles.test.ts).
    expect(checkNamed(doctor.out, 'database')).toMatchObject({ status: 'warn' });
    expect(checkNamed(doctor.out, 'database')?.summary).toMatch(
      /the role connected owns .*connections.*so it could turn row-level security off/,
    );
    expect(checkNamed(doctor.out, 'database')?.summary).toContain('toolsteps db migrate --grant-to');
    for (const result of [added, withKey, withoutKey, table, doctor]) {
      expect(result.out + result.err).not.toContain(accessToken);
    }
  }, 120_000);
});

/**
 * The documented two-role setup, through the CLI as it ships: the owner
 * runs `db migrate --grant-to <worker>`, the workers (and `doctor`) connect
 * as the worker role, which owns nothing; `doctor` finds nothing to warn
 * about, and the commands work as that role.
 */
describe.skipIf(!enabled)('the CLI on Postgres with an owner role and a worker role', () => {
  let database: TwoRoleDatabase;
  const key = newEncryptionKey();
  const toolsteps = useCli(() => ({
    TOOLSTEPS_DATABASE_URL: database.workerUrl,
    TOOLSTEPS_ENCRYPTION_KEY: key,
  })).run;
  const databaseCheck = (out: string) => checkNamed(out, 'database');

  beforeAll(async () => {
    database = await ownTwoRoleDatabase('cli_roles');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('db migrate --grant-to as the owner, then doctor as the worker: no warning', async () => {
    const migrated = await toolsteps(['db', 'migrate', '--grant-to', database.workerRole], {
      TOOLSTEPS_DATABASE_URL: database.ownerUrl,
    });
    expect(migrated.code).toBe(0);
    expect(migrated.out).toContain(`Granted ${database.workerRole} the toolsteps tables' rows`);
    const doctor = await toolsteps(['doctor', '--json']);
    expect(databaseCheck(doctor.out)).toMatchObject({ status: 'ok' });
    expect(databaseCheck(doctor.out)?.summary).toContain(
      `schema version ${SCHEMA_VERSION}, row-level security on`,
    );
    // The worker's role reads the tables it was granted.
    const listed = await toolsteps(['connections', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0 });
    expect(JSON.parse(listed.out)).toEqual([]);
  }, 120_000);

  it('doctor run as the owner warns: that role owns the tables', async () => {
    const doctor = await toolsteps(['doctor', '--json'], { TOOLSTEPS_DATABASE_URL: database.ownerUrl });
    expect(databaseCheck(doctor.out)).toMatchObject({ status: 'warn' });
    expect(databaseCheck(doctor.out)?.summary).toContain('could turn row-level security off');
  }, 120_000);

  it('a role name that is not a plain identifier is refused before anything is granted', async () => {
    const refused = await toolsteps(['db', 'migrate', '--grant-to', 'x"; DROP TABLE y; --', '--json'], {
      TOOLSTEPS_DATABASE_URL: database.ownerUrl,
    });
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.out).error.code).toBe('input_invalid');
  }, 120_000);
});

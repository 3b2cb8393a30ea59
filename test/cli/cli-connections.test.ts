import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeDesk, cli, jsonError, useCliWorld } from './cli-harness.js';

const world = useCliWorld('toolsteps-cli-connections-', { env: ['TS_CONN_TOKEN'] });
const ticketingSent = () =>
  world.sandbox.server.requestLog.filter((entry) => entry.mount === 'ticketing').length;
const stored = async (id: string) =>
  JSON.parse(await readFile(path.join(world.home, 'connections', `${id}.json`), 'utf8')) as {
    label?: string;
    createdAt: number;
    secrets: Record<string, string>;
  };

beforeAll(async () => {
  process.env.TS_CONN_TOKEN = world.sandbox.ticketing.issueTokens('acme').access_token;
});

const addDesk = (id: string, ...flags: string[]) =>
  cli(
    'connections',
    'add',
    'ticketing',
    '--id',
    id,
    ...acmeDesk(world.sandbox),
    '--access-token-env',
    'TS_CONN_TOKEN',
    ...flags,
  );
const connectDesk = (id: string, ...flags: string[]) =>
  cli('connect', 'ticketing', '--id', id, ...acmeDesk(world.sandbox), ...flags);

describe('connections add and connect never overwrite without --force', () => {
  it('connections add refuses a taken id (exit 2, nothing changed) and replaces it with --force', async () => {
    expect((await addDesk('desk', '--label', 'First')).code).toBe(0);
    const createdAt = (await stored('desk')).createdAt;
    const again = await addDesk('desk', '--label', 'Second', '--json');
    expect(again.code).toBe(2);
    expect(jsonError(again)).toMatchObject({ code: 'input_invalid', fields: [{ path: 'id' }] });
    expect(jsonError(again).message).toContain('--force');
    expect((await stored('desk')).label).toBe('First');
    expect((await addDesk('desk', '--label', 'Second', '--force')).code).toBe(0);
    expect(await stored('desk')).toMatchObject({ label: 'Second', createdAt });
  });

  it('connect refuses a taken id before any sign-in, and signs in again with --force', async () => {
    expect((await addDesk('oauth-desk')).code).toBe(0);
    const before = ticketingSent();
    const grants = world.sandbox.ticketing.oauth.grants.authorization_code;
    const refused = await connectDesk('oauth-desk');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('already exists');
    expect(ticketingSent()).toBe(before);
    const forced = await connectDesk('oauth-desk', '--force');
    expect(forced.code).toBe(0);
    expect(world.sandbox.ticketing.oauth.grants.authorization_code).toBe(grants + 1);
    expect((await stored('oauth-desk')).secrets.refreshToken).toMatch(/^tkt_rt_/);
  });
});

describe('connect checks before any browser', () => {
  it('an unknown integration, a bad field or a bad --timeout: exit 2, nothing sent', async () => {
    const before = ticketingSent();
    expect((await cli('connect', 'ticketin', '--id', 'x')).code).toBe(2);
    expect((await cli('connect', 'ticketing', '--id', 'x', '--subdomain', 'not a label!')).code).toBe(2);
    const timeout = await connectDesk('x', '--timeout', 'soon', '--json');
    expect(timeout.code).toBe(2);
    expect(jsonError(timeout).message).toContain('--timeout');
    expect(ticketingSent()).toBe(before);
  });

  it('against the sandbox it says so: no browser needed', async () => {
    const result = await connectDesk('hinted', '--timeout', '30');
    expect(result.code).toBe(0);
    expect(result.err).toContain(
      `Connecting to the local sandbox at ${world.sandbox.baseUrl('ticketing', 'acme')}`,
    );
  });
});

describe('connections list', () => {
  it('is a table with a header for people, and JSON with --json', async () => {
    const table = await cli('connections', 'list');
    expect(table.code).toBe(0);
    const [header, ...rows] = table.out.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+INTEGRATION\s+LABEL\s+HEALTH\s+TOKEN\s+BASE URL$/);
    const desk = rows.find((row) => row.startsWith('desk '));
    expect(desk).toMatch(
      /^desk\s+ticketing\s+Second\s+healthy\s+no expiry\s+http:\/\/127\.0\.0\.1:\d+\/ticketing\/acme$/,
    );
    const hinted = rows.find((row) => row.startsWith('hinted '));
    expect(hinted).toMatch(/valid, refreshable/);
    // Every column starts at the same offset on every row.
    const at = header!.indexOf('TOKEN');
    expect(rows.every((row) => row[at - 1] === ' ' && row[at] !== ' ')).toBe(true);
    const json = JSON.parse((await cli('connections', 'list', '--json')).out) as {
      id: string;
      state: string;
    }[];
    expect(json.find((row) => row.id === 'hinted')).toMatchObject({ state: 'ok', refreshable: true });
    expect(JSON.stringify(json)).not.toContain(process.env.TS_CONN_TOKEN);
  });
});

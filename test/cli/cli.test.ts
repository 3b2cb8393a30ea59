import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { acmeDesk, cli, runStep, useCliWorld } from './cli-harness.js';

const world = useCliWorld('toolsteps-cli-', { env: ['TS_TEST_TOKEN'] });
beforeEach(() => {
  delete process.env.TS_TEST_TOKEN;
});

describe('toolsteps CLI', () => {
  it('list, search and describe the catalogue', async () => {
    const listed = await cli('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('ticketing.create_ticket');
    const found = await cli('search', 'zendesk', 'create', 'ticket', '--json');
    expect(JSON.parse(found.out)[0].id).toBe('ticketing.create_ticket');
    const described = await cli('describe', 'ticketing.delete_ticket', '--json');
    expect(JSON.parse(described.out)).toMatchObject({
      access: 'destructive',
      idempotent: true,
      variables: { ticket_id: '$.ticket_id' },
    });
    const human = await cli('describe', 'ticketing.create_ticket');
    expect(human.out).toContain('default variables:');
  });

  it('an unknown step is bad input (exit 2) with suggestions', async () => {
    const result = await cli('describe', 'ticketing.create_tickets');
    expect(result.code).toBe(2);
    expect(result.err).toContain('ticketing.create_ticket');
  });

  it('connections add takes secrets from the environment, never a flag value', async () => {
    const args = ['connections', 'add', 'ticketing', '--id', 'x'];
    const flag = await cli(...args, '--subdomain', 'acme', '--access-token', 'abc');
    expect(flag.code).toBe(2);
    const missing = await cli(...args, '--subdomain', 'acme', '--access-token-env', 'TS_TEST_TOKEN');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('TS_TEST_TOKEN');
    const badSubdomain = await cli(...args, '--subdomain', 'evil.com#');
    expect(badSubdomain.code).toBe(2);
  });

  it('adds, lists, runs with and removes a connection against the sandbox', async () => {
    const tokens = world.sandbox.ticketing.issueTokens('acme');
    process.env.TS_TEST_TOKEN = tokens.access_token;
    const added = await cli(
      'connections',
      'add',
      'ticketing',
      '--id',
      'acme-cli',
      '--label',
      'Acme',
      ...acmeDesk(world.sandbox),
      '--access-token-env',
      'TS_TEST_TOKEN',
    );
    expect(added.code).toBe(0);
    const file = path.join(world.home, 'connections', 'acme-cli.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const listed = await cli('connections', 'list', '--json');
    expect(listed.out).not.toContain(tokens.access_token);
    expect(JSON.parse(listed.out)[0]).toMatchObject({
      id: 'acme-cli',
      label: 'Acme',
      integration: 'ticketing',
    });

    const mapFirst = ['--map', 'first=$.tickets[0].subject'];
    const ran = await runStep('ticketing.list_tickets', 'acme-cli', { limit: 2 }, ...mapFirst, '--json');
    expect(ran.code).toBe(0);
    const parsed = JSON.parse(ran.out);
    expect(parsed.variables).toMatchObject({ first: 'Cannot log in', next_cursor: expect.any(String) });
    expect(parsed.meta).toMatchObject({ step: 'ticketing.list_tickets', attempts: 1 });
    expect(ran.out).not.toContain(tokens.access_token);

    const bad = await runStep('ticketing.create_ticket', 'acme-cli', { subject: '' }, '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.out).error).toMatchObject({ code: 'input_invalid' });

    const missing = await runStep('ticketing.get_ticket_info', 'acme-cli', { ticket_id: 999 }, '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out).error).toMatchObject({ code: 'not_found', status: 404 });

    const unknown = await cli('run', 'ticketing.list_tickets', '--connection', 'nobody', '--json');
    expect(unknown.code).toBe(2);

    expect((await cli('connections', 'remove', 'acme-cli')).code).toBe(0);
    expect((await cli('connections', 'remove', 'acme-cli')).code).toBe(2);
  });

  it('connect runs the OAuth code flow with a loopback callback and PKCE', async () => {
    const result = await cli('connect', 'ticketing', '--id', 'acme-oauth', ...acmeDesk(world.sandbox));
    expect(result.code).toBe(0);
    const stored = JSON.parse(
      await readFile(path.join(world.home, 'connections', 'acme-oauth.json'), 'utf8'),
    );
    expect(stored.secrets.refreshToken).toMatch(/^tkt_rt_/);
    expect(stored.fields.clientId).toBe('toolsteps-cli');
    expect(world.sandbox.ticketing.oauth.grants.authorization_code).toBeGreaterThanOrEqual(1);
    const ran = await runStep('ticketing.search_tickets', 'acme-oauth', { query: 'status:open' });
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('ticket_ids');
    expect(
      (await readdir(path.join(world.home, 'connections'))).filter((name) => name.endsWith('.tmp')),
    ).toEqual([]);
  });

  it('manifest --check passes on the committed manifest', async () => {
    const result = await cli('manifest', '--check');
    expect(result.code).toBe(0);
  });
});

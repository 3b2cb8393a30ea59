import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acmeDesk, addConnection, cli, jsonError, useCliWorld } from './cli-harness.js';

const world = useCliWorld('toolsteps-cli-input-', { env: ['TS_INPUT_TOKEN'] });

const ticketingSent = () => world.sandbox.server.requestLog.filter((entry) => entry.mount === 'ticketing');
const stored = async () => readdir(path.join(world.home, 'connections')).catch(() => [] as string[]);
const token = { env: 'TS_INPUT_TOKEN', value: 'tkt_input_test_token_value' };
/** `toolsteps connections add ticketing --id <id> --subdomain acme` with the token above, and any further flags. */
const addAcme = (id: string, ...flags: string[]) =>
  addConnection('ticketing', id, token, '--subdomain', 'acme', ...flags);
/** `toolsteps connect ticketing --id <id>` to the sandbox's acme desk, with any further flags. */
const connectAcme = (id: string, ...flags: string[]) =>
  cli('connect', 'ticketing', '--id', id, ...acmeDesk(world.sandbox), ...flags);

/** A free loopback port, and a way to keep it taken. */
async function loopbackServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('CLI input errors are InputErrors: exit 2, code input_invalid, nothing sent', () => {
  it('connections add --expires-in abc', async () => {
    const human = await addAcme('exp', '--expires-in', 'abc');
    expect(human.code).toBe(2);
    expect(human.err).toContain('error [input_invalid]: --expires-in must be a whole number');
    expect(human.err).not.toMatch(/ZodError|internal_error/);
    const json = await addAcme('exp', '--expires-in', '1e3', '--json');
    expect(json.code).toBe(2);
    expect(jsonError(json)).toMatchObject({ code: 'input_invalid', name: 'InputError' });
    expect(await stored()).not.toContain('exp.json');
    const fine = await addAcme('exp', '--expires-in', '1800');
    expect(fine.code).toBe(0);
  });

  it('connections add with a label the store would refuse', async () => {
    const result = await addAcme('long-label', '--label', 'x'.repeat(201), '--json');
    expect(result.code).toBe(2);
    expect(jsonError(result)).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'label' }],
    });
    expect(result.out).not.toContain(token.value);
  });

  it('connect checks the connection id before the OAuth flow starts', async () => {
    const before = ticketingSent().length;
    const grants = world.sandbox.ticketing.oauth.grants.authorization_code;
    const result = await connectAcme('not a valid id!', '--json');
    expect(result.code).toBe(2);
    expect(jsonError(result)).toMatchObject({ code: 'input_invalid', fields: [{ path: 'id' }] });
    expect(ticketingSent().length).toBe(before);
    expect(world.sandbox.ticketing.oauth.grants.authorization_code).toBe(grants);
  });

  it('connect checks the label and the callback port before the OAuth flow starts', async () => {
    const before = ticketingSent().length;
    const base = ['connect', 'ticketing', '--id', 'early', '--subdomain', 'acme'];
    const url = ['--base-url', world.sandbox.baseUrl('ticketing', 'acme')];
    expect((await cli(...base, ...url, '--label', 'y'.repeat(201))).code).toBe(2);
    const port = await cli(...base, ...url, '--callback-port', '70000', '--json');
    expect(port.code).toBe(2);
    expect(jsonError(port).message).toContain('--callback-port');
    expect(ticketingSent().length).toBe(before);
    expect(await stored()).not.toContain('early.json');
  });
});

describe('connect --callback-port', () => {
  it('listens on the given port, so the redirect URL is exactly http://127.0.0.1:<port>/callback', async () => {
    const probe = await loopbackServer();
    await probe.close();
    const result = await connectAcme('fixed-port', '--callback-port', String(probe.port), '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ id: 'fixed-port', connected: true });
    const authorize = ticketingSent().filter((entry) => entry.path.includes('redirect_uri='));
    const sent = new URL(authorize.at(-1)!.path, 'http://x.invalid').searchParams.get('redirect_uri');
    expect(sent).toBe(`http://127.0.0.1:${probe.port}/callback`);
  });

  it('a port in use is bad input, and nothing is sent', async () => {
    const taken = await loopbackServer();
    try {
      const before = ticketingSent().length;
      const result = await connectAcme('busy-port', '--callback-port', String(taken.port));
      expect(result.code).toBe(2);
      expect(result.err).toContain(`127.0.0.1:${taken.port}`);
      expect(result.err).toContain('in use');
      expect(ticketingSent().length).toBe(before);
    } finally {
      await taken.close();
    }
  });
});

describe('commander usage errors', () => {
  it('honour --json: one JSON error on stdout, nothing on stderr, exit 2', async () => {
    const unknown = await cli('connections', 'add', 'ticketing', '--id', 'u', '--json', '--bogus');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('');
    expect(jsonError(unknown)).toMatchObject({ code: 'input_invalid' });
    expect(jsonError(unknown).message).toContain("unknown option '--bogus'");

    const missing = await cli('--json', 'run', 'ticketing.list_tickets');
    expect(missing.code).toBe(2);
    expect(jsonError(missing).message).toContain('--connection');

    const nothing = await cli('--json');
    expect(nothing.code).toBe(2);
    expect(jsonError(nothing)).toMatchObject({ code: 'input_invalid' });

    const unknownCommand = await cli('frobnicate', '--json');
    expect(unknownCommand.code).toBe(2);
    expect(jsonError(unknownCommand).message).toContain('frobnicate');
  });

  it('stay on stderr for people', async () => {
    const result = await cli('connections', 'add', 'ticketing', '--id', 'u', '--bogus');
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toContain("unknown option '--bogus'");
  });

  it('never echo a secret typed as --option=value', async () => {
    for (const json of [[], ['--json']]) {
      const result = await cli(
        'connections',
        'add',
        'ticketing',
        '--id',
        'leak',
        '--access-token=tkt_typed_on_the_command_line',
        ...json,
      );
      expect(result.code).toBe(2);
      expect(`${result.out}${result.err}`).toContain('--access-token=');
      expect(`${result.out}${result.err}`).not.toContain('tkt_typed_on_the_command_line');
    }
  });
});

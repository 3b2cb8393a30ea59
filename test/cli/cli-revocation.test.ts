import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { failTicketingRevocations } from '../support/ticketing-revocation-fault.js';
import { acmeDesk, addConnection, type CliResult, cli, useCliWorld } from './cli-harness.js';

const world = useCliWorld('toolsteps-revoke-', {
  env: ['TS_REVOKE_ACCESS', 'TS_REVOKE_REFRESH', 'TS_REVOKE_KEY'],
});

/** A ticketing connection with a refresh token the sandbox issued, as a sign-in leaves it; its tokens. */
async function addRefreshable(id: string): Promise<string[]> {
  const tokens = world.sandbox.ticketing.issueTokens('acme');
  process.env.TS_REVOKE_REFRESH = tokens.refresh_token as string;
  const added = await addConnection(
    'ticketing',
    id,
    { env: 'TS_REVOKE_ACCESS', value: tokens.access_token },
    ...acmeDesk(world.sandbox),
    '--client-id',
    'toolsteps-cli',
    '--refresh-token-env',
    'TS_REVOKE_REFRESH',
  );
  expect(added.code).toBe(0);
  return [tokens.access_token, tokens.refresh_token as string];
}

/** Every file under the store's home, read whole. */
async function everythingStored(): Promise<string> {
  const entries = await readdir(world.home, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
}

const outputs: CliResult[] = [];
async function run(...args: string[]): Promise<CliResult> {
  const result = await cli(...args);
  outputs.push(result);
  return result;
}

describe('toolsteps connections remove and revoke-pending, on the sandbox', () => {
  it('remove revokes the grant at the provider (counted once) and exits 0; an API key says there is nothing to revoke', async () => {
    const revoked = world.sandbox.ticketing.oauth.revocations.revoked;
    const tokens = await addRefreshable('desk-gone');
    const removed = await run('connections', 'remove', 'desk-gone');
    expect(removed.code).toBe(0);
    expect(removed.out).toBe('Removed connection "desk-gone".\nIts grant: revoked at the provider.\n');
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revoked + 1);
    const key = await addConnection(
      'anz_data',
      'enrich',
      {
        env: 'TS_REVOKE_KEY',
        value: ANZ_DATA_SANDBOX_KEY,
        flag: '--api-key-env',
      },
      '--base-url',
      world.sandbox.baseUrl('anz-data'),
    );
    expect(key.code).toBe(0);
    const keyRemoved = await run('connections', 'remove', 'enrich', '--json');
    expect(keyRemoved.code).toBe(0);
    expect(JSON.parse(keyRemoved.out)).toMatchObject({
      id: 'enrich',
      removed: true,
      revocation: { state: 'not_revocable', reason: expect.stringContaining('an API key') },
    });
    const stored = await everythingStored();
    for (const token of [...tokens, ANZ_DATA_SANDBOX_KEY]) expect(stored).not.toContain(token);
  });

  it('a revocation the provider fails is kept (exit 1, doctor warns), and revoke-pending completes it once', async () => {
    const revoked = world.sandbox.ticketing.oauth.revocations.revoked;
    const tokens = await addRefreshable('desk-flaky');
    failTicketingRevocations(world.sandbox);
    const removed = await run('connections', 'remove', 'desk-flaky');
    expect(removed.code).toBe(1);
    expect(removed.out).toContain('Removed connection "desk-flaky".');
    expect(removed.out).toMatch(
      /revocation at the provider failed \(revocation_failed, try 1\); kept and tried again after .* by `toolsteps connections revoke-pending`/,
    );
    expect((await run('connections', 'list', '--json')).out).toBe('[]\n');
    // Kept as the file store keeps connections: 0600 in a 0700 folder.
    const folder = path.join(world.home, 'pending-revocations');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(folder);
    expect((await stat(path.join(folder, file as string))).mode & 0o777).toBe(0o600);

    const listed = await run('connections', 'revoke-pending', '--list', '--json');
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({
        tenant: 'default',
        connection: { id: 'desk-flaky', integration: 'ticketing', label: null },
        revocation: expect.objectContaining({ state: 'pending', attempts: 1, code: 'revocation_failed' }),
      }),
    ]);
    const doctor = await run('doctor', '--json');
    const checks = (
      JSON.parse(doctor.out) as {
        checks: { name: string; status: string; summary: string; details: string[] }[];
      }
    ).checks;
    expect(checks.find((check) => check.name === 'revocations')).toMatchObject({
      status: 'warn',
      summary: '1 removed connection not yet revoked at the provider: toolsteps connections revoke-pending',
      details: [
        expect.stringMatching(
          /^default\/desk-flaky \(ticketing, rv_[a-f0-9]{20}\): 1 try, last revocation_failed \(503\), next after /,
        ),
      ],
    });

    // Its backoff (a minute) has not passed: nothing is sent, and it still waits.
    const early = await run('connections', 'revoke-pending');
    expect(early.code).toBe(1);
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revoked);
    const now = await run('connections', 'revoke-pending', '--now');
    expect(now.code).toBe(0);
    expect(now.out).toMatch(
      /^default\/desk-flaky \(ticketing, rv_[a-f0-9]{20}\): revoked at the provider\.\n$/,
    );
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revoked + 1);
    const again = await run('connections', 'revoke-pending', '--now');
    expect([again.code, again.out]).toEqual([0, 'No pending revocations.\n']);
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revoked + 1);

    const stored = await everythingStored();
    const printed = JSON.stringify(outputs);
    for (const token of tokens) {
      expect(stored).not.toContain(token);
      expect(printed).not.toContain(token);
    }
  });
});

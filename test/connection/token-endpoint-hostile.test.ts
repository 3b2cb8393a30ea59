import { afterEach, describe, expect, it } from 'vitest';
import { exchangeCode } from '../../src/connection/oauth-client.js';
import type { Connection } from '../../src/model/connection.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import {
  answerJson,
  type HostileProvider,
  startHostileProvider,
  trickle,
} from '../support/hostile-provider.js';
import { everyView, expectNoSecret } from '../support/secret-views.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

const CLIENT_ID = 'toolsteps-cli';
const CLIENT_SECRET = 'cs-0123456789-secret-value';
const BASIC = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');

let fx: TicketingFixture;
let hostile: HostileProvider;
afterEach(async () => {
  await hostile.close();
  await fx.close();
});

/** A ticketing connection whose every request goes through the hostile provider, expired so a step refreshes first. */
async function expiredConnectionBehindHostile(
  secrets: Partial<Connection['secrets']> = {},
  runtime: RuntimeOptions = {},
) {
  fx = await ticketingFixture();
  hostile = await startHostileProvider(new URL(fx.connection.fields.baseUrl!).origin);
  const connection: Connection = {
    ...fx.connection,
    fields: { ...fx.connection.fields, baseUrl: hostile.baseUrlFor(fx.connection.fields.baseUrl!) },
    secrets: { ...fx.connection.secrets, ...secrets },
  };
  await fx.store.put(connection);
  fx.clock.advance(31 * 60_000);
  const run = new Runtime({ store: fx.store, clock: fx.clock, ...runtime });
  const invoke = () =>
    fx.registry.invoke(run, 'ticketing.list_tickets', { connection: connection.id, input: { limit: 1 } });
  return { connection, invoke };
}

const isTokenRequest = (path: string) => path.includes('/oauth/tokens');

describe('the token endpoint cannot leak a secret', () => {
  it('a refresh before a step redacts what the endpoint says, in every form we send, and a prefix at its cut', async () => {
    const { connection, invoke } = await expiredConnectionBehindHostile({ clientSecret: CLIENT_SECRET });
    const refresh = connection.secrets.refreshToken!;
    const access = connection.secrets.accessToken!;
    hostile.script((request, response) => {
      if (!isTokenRequest(request.path)) return false;
      return answerJson(response, 400, {
        error: `invalid_grant:${refresh}`,
        error_description: `refresh_token=${encodeURIComponent(refresh)} client_secret=${CLIENT_SECRET} Basic ${BASIC} old Bearer ${access} cut at ${refresh.slice(0, 12)}`,
      });
    });
    const error = await invoke().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'reauthorization_required' });
    expectNoSecret(everyView(error), [refresh, access, CLIENT_SECRET, BASIC]);
  });

  it('a code exchange during connect redacts the code, the client secret and the PKCE verifier', async () => {
    fx = await ticketingFixture();
    hostile = await startHostileProvider(new URL(fx.connection.fields.baseUrl!).origin);
    const code = 'code-abcdef0123456789';
    const verifier = 'pkce-0123456789abcdefghijklmnop';
    hostile.script((request, response) => {
      const sent = JSON.parse(request.body) as Record<string, string>;
      return answerJson(response, 401, {
        error: 'invalid_client',
        error_description: `code ${sent.code} secret ${sent.client_secret} verifier ${encodeURIComponent(sent.code_verifier ?? '')} auth ${BASIC}`,
      });
    });
    const integration = fx.registry.integration('ticketing')!;
    const error = await exchangeCode(
      {
        integration,
        baseUrl: hostile.baseUrlFor(fx.connection.fields.baseUrl!),
        fetch: globalThis.fetch,
        dispatcher: fx.runtime.httpDispatcher,
        clock: fx.clock,
      },
      {
        code,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: 'http://127.0.0.1:1/cb',
        codeVerifier: verifier,
      },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'auth_failed' });
    expectNoSecret(everyView(error), [code, verifier, CLIENT_SECRET, BASIC]);
  });
});

describe('the token request has a deadline', () => {
  it('an endpoint trickling its answer fails as a timeout, and releases the connection for the next call', async () => {
    const { invoke } = await expiredConnectionBehindHostile({}, { requestTimeoutMs: 3_000 });
    hostile.script((request, response) => {
      if (!isTokenRequest(request.path)) return false;
      trickle(response, 200, JSON.stringify({ access_token: 'x'.repeat(200) }), 100);
      return true;
    });
    const error = await invoke().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'timeout', name: 'TimeoutError' });
    expect((error as Error).message).toMatch(/token endpoint.*3000 ms/);
    hostile.script(() => false);
    const result = await invoke();
    expect(result.output).toMatchObject({ tickets: expect.any(Array) });
  }, 15_000);
});

describe('token answers are validated before they are stored', () => {
  it('an access token with a line break is refused; the rotated refresh token it came with is kept', async () => {
    const { connection, invoke } = await expiredConnectionBehindHostile();
    const rotated = 'rt-rotated-0123456789';
    hostile.script((request, response) => {
      if (!isTokenRequest(request.path)) return false;
      return answerJson(response, 200, {
        access_token: 'good\r\nX-Injected: 1',
        refresh_token: rotated,
        expires_in: 1800,
      });
    });
    const error = await invoke().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_error', retryable: true });
    expect((error as Error).message).toMatch(/access_token.*saved/);
    const stored = await fx.store.get(connection.id);
    expect(stored?.secrets.refreshToken).toBe(rotated);
    expect(stored?.secrets.accessToken).not.toMatch(/[\r\n]/);
  });

  it.each([
    ['1800.0005', 1800.0005, 1800],
    ['1e300', 1e300, 365 * 24 * 3600],
    ['a numeric string', '3600', 3600],
  ])(
    'expires_in of %s is clamped to whole seconds in sane bounds, and the new pair is saved',
    async (_, given, seconds) => {
      const { connection, invoke } = await expiredConnectionBehindHostile();
      let refreshes = 0;
      // A token the sandbox accepts, so the step itself succeeds through the proxy.
      const issued = fx.sandbox.ticketing.issueTokens('acme').access_token;
      hostile.script((request, response) => {
        if (!isTokenRequest(request.path)) return false;
        refreshes++;
        return answerJson(response, 200, {
          access_token: issued,
          refresh_token: 'rt-rotated-abcdefghij',
          expires_in: given,
        });
      });
      const result = await invoke().catch((caught: unknown) => caught);
      expect(refreshes).toBe(1);
      const stored = await fx.store.get(connection.id);
      expect(stored?.secrets.refreshToken).toBe('rt-rotated-abcdefghij');
      expect(stored?.expiresAt).toBe(fx.clock.now() + seconds * 1000);
      expect(result).toMatchObject({ output: { tickets: expect.any(Array) } });
    },
  );

  it('an answer with no usable token and no rotated refresh token says re-authorisation is needed', async () => {
    const { invoke } = await expiredConnectionBehindHostile();
    hostile.script((request, response) => {
      if (!isTokenRequest(request.path)) return false;
      return answerJson(response, 200, { access_token: '', token_type: 'bearer' });
    });
    const error = await invoke().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'reauthorization_required' });
    expect((error as Error).message).toMatch(/re-authorisation/);
  });
});

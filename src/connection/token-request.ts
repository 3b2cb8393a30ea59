import type { Dispatcher } from 'undici';
import { NetworkError, ProviderError, TimeoutError, ToolstepsError } from '../errors/index.js';
import { redactSecrets } from '../errors/redaction.js';
import type { Clock } from '../model/clock.js';
import type { Integration } from '../model/define-integration.js';
import { oauthOf } from './oauth-settings-of.js';

/** The default deadline of one token request, headers and body together. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;
/** A token answer is a few hundred bytes; anything this large is not one. */
const TOKEN_ANSWER_LIMIT = 256 * 1024;

export interface TokenEndpointOptions {
  integration: Integration;
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  /** undefined: fetch's own global dispatcher. */
  dispatcher: Dispatcher | undefined;
  clock: Clock;
  signal?: AbortSignal;
  /**
   * One deadline for the whole request, headers and body: the transport's
   * idle timeouts do not stop an endpoint that trickles a byte every few
   * seconds, and a refresh holds the connection's lock while it waits.
   */
  timeoutMs?: number;
  /** Every other secret of the connection, redacted from what the endpoint says as well as those sent. */
  knownSecrets?: readonly (string | undefined)[];
  /**
   * Called with a well-formed rotated refresh token that came in an answer
   * we cannot use otherwise: the provider has already spent the old one, so
   * it must be kept before the request fails.
   */
  keepRotatedRefreshToken?: (refreshToken: string) => Promise<void>;
  /**
   * The refresh-token lifetime to ask for, in seconds, where the integration
   * lets the client choose one (`OAuthSettings.refreshTokenLifetime`); clamped
   * to its bounds. Undefined: the provider's default.
   */
  refreshTokenLifetimeS?: number;
}

export interface TokenExchange {
  grant: 'authorization_code' | 'refresh_token';
  params: Record<string, string | number | undefined>;
  /** The secrets sent, plus the forms we put them in. */
  secrets: string[];
}

/** Sends the request and reads the whole answer under one deadline, so a trickling endpoint cannot hold us. */
export async function sendTokenRequest(
  options: TokenEndpointOptions,
  url: string,
  exchange: TokenExchange,
): Promise<{ status: number; ok: boolean; text: string }> {
  const oauth = oauthOf(options.integration);
  const entries = Object.entries({ ...exchange.params, ...lifetimeAsked(options) }).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  const json = oauth.tokenRequestEncoding === 'json';
  const body = json
    ? JSON.stringify(Object.fromEntries(entries))
    : new URLSearchParams(entries.map(([name, value]) => [name, String(value)])).toString();
  const where = `POST ${new URL(url).pathname}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const response = await options.fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body,
      redirect: 'manual',
      signal,
      dispatcher: options.dispatcher,
    } as RequestInit);
    const text = await readCapped(response, TOKEN_ANSWER_LIMIT);
    return { status: response.status, ok: response.ok, text };
  } catch (thrown) {
    if (deadline.aborted) {
      throw new TimeoutError(
        `${where} (token endpoint) did not answer in full within ${timeoutMs} ms; the ${exchange.grant === 'refresh_token' ? 'refresh' : 'code exchange'} was abandoned.`,
        {
          retryable: exchange.grant === 'refresh_token',
          sent: 'unknown',
          context: { method: 'POST', path: new URL(url).pathname },
        },
      );
    }
    if (thrown instanceof ToolstepsError) throw thrown;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    throw new NetworkError(`${where} (token endpoint at ${new URL(url).host}) failed on the network.`, {
      sent: 'unknown',
      cause: new Error(redactSecrets(message, exchange.secrets)),
    });
  }
}

/** The refresh-token lifetime field to send, clamped to what the provider takes; none when it takes none. */
function lifetimeAsked(options: TokenEndpointOptions): Record<string, number> {
  const asked = options.refreshTokenLifetimeS;
  const lifetime = oauthOf(options.integration).refreshTokenLifetime;
  if (asked === undefined || !lifetime || !Number.isFinite(asked)) return {};
  return { [lifetime.parameter]: Math.round(Math.min(Math.max(asked, lifetime.minS), lifetime.maxS)) };
}

/** Reads a body up to `limit` bytes; a larger one is refused rather than buffered. */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new ProviderError(
        `The token endpoint answered with more than ${limit} bytes; not a token answer.`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

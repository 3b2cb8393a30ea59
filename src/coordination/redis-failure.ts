import { NetworkError, ToolstepsError } from '../errors/index.js';
import { redactSecrets } from '../errors/redaction.js';
import type { RedisClient } from '../peers/redis-client.js';

/**
 * Replies Redis gives while it cannot serve now but will (loading its data,
 * a busy script, a replica promoted, memory or disk full): waiting helps.
 * Any other reply (a script error, a key of the wrong type, a password or
 * ACL refused) says the same thing again when sent again.
 */
const PASSING_REPLIES = new Set([
  'LOADING',
  'BUSY',
  'READONLY',
  'OOM',
  'MISCONF',
  'TRYAGAIN',
  'MASTERDOWN',
  'CLUSTERDOWN',
  'NOREPLICAS',
]);

/** Where the client talks to, by host and port (or socket path): never the URL, which may hold a password. */
export function redisAddress(client: RedisClient): string {
  const { host, port, path } = client.options ?? {};
  return path ? path : `${host ?? 'localhost'}:${port ?? 6379}`;
}

/** The first word of a Redis error reply (`WRONGTYPE`, `OOM`, `NOPERM`...), which is its code. */
function replyCode(error: Error): string | undefined {
  if (error.name !== 'ReplyError') return undefined;
  return /^([A-Z]+)\b/.exec(error.message)?.[1] ?? 'ERR';
}

/**
 * What a failed call to Redis means to every caller: a `network_error` with
 * nothing sent to the provider (a store or coordinator call comes before the
 * request it guards), naming Redis by host and port, never its password,
 * with the client's error as `cause`. Retryable, unless Redis answered with
 * a reply that a retry gets again. An error that is already ours passes.
 */
export function redisFailure(client: RedisClient, error: unknown): ToolstepsError {
  if (ToolstepsError.isInstance(error)) return error;
  const raw = error instanceof Error ? error : new Error(String(error));
  const reply = replyCode(raw);
  const retryable = reply === undefined || PASSING_REPLIES.has(reply);
  const said = redactSecrets(raw.message.split('\n')[0]?.slice(0, 300) ?? '', [client.options?.password]);
  const systemCode = (raw as { code?: unknown }).code;
  const address = redisAddress(client);
  return new NetworkError(
    `Redis at ${address} ${reply ? 'refused the command' : 'did not answer'} (${said}); nothing was sent to the provider.`,
    {
      retryable,
      sent: false,
      transportCode: reply ?? (typeof systemCode === 'string' ? systemCode : raw.name),
      hint: retryable
        ? 'Try again once Redis answers (TOOLSTEPS_REDIS_URL); the workers pick it up without a restart.'
        : 'Sending it again gets the same reply: check the credentials and ACL of TOOLSTEPS_REDIS_URL, and that nothing else writes under its key prefix.',
      context: { redis: address },
      cause: raw,
    },
  );
}

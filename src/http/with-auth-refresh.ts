import type { Connection } from '../connection/connection.js';
import { AuthError, type ToolstepsError } from '../errors/index.js';
import { addStats, type Exchange } from './exchange.js';

/** The connection a client sends as, and how to renew it. */
export interface BoundCredentials {
  current(): Connection;
  /** Present when the connection can be refreshed: forces a refresh and returns the new connection. */
  refresh?: (() => Promise<Connection>) | undefined;
}

function refused(error: unknown): error is AuthError {
  return error instanceof AuthError && error.status === 401;
}

function reauthorize(error: ToolstepsError, connection: Connection): AuthError {
  return new AuthError(
    `${error.message} The token was refreshed and still refused: connection "${connection.id}" needs re-authorisation (run: toolsteps connect ${connection.integration} --id ${connection.id}).`,
    { ...error.asInit(), reauthorize: true },
  );
}

/**
 * A 401 refreshes the token once and replays once: a 401 means the provider
 * did not act, so the replay is safe for any request. `send` prepares the
 * request anew each time, so the replay carries the new token. A second 401
 * means the connection needs re-authorisation.
 */
export function withAuthRefresh<Request>(
  send: (request: Request) => Promise<Exchange>,
  credentials: BoundCredentials,
): (request: Request) => Promise<Exchange> {
  return async (request: Request): Promise<Exchange> => {
    const first = await send(request);
    if (first.ok || !refused(first.error) || !credentials.refresh) return first;
    const connection = credentials.current();
    try {
      await credentials.refresh();
    } catch (error) {
      return { ok: false, error, stats: first.stats };
    }
    const second = await send(request);
    const stats = addStats(first.stats, second.stats);
    if (second.ok) return { ...second, stats };
    return {
      ok: false,
      error: refused(second.error) ? reauthorize(second.error, connection) : second.error,
      stats,
    };
  };
}

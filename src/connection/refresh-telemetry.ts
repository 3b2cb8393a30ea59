import { AuthError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import {
  addSafeEvent,
  inSpan,
  instruments,
  safeAttributes,
  setSafeAttributes,
  telemetryRegistered,
} from '../telemetry/index.js';

/** How a token refresh ended: new tokens kept, the provider refused the grant, or it failed otherwise. */
type RefreshResult = 'done' | 'refused' | 'failed';

function resultOf(error: unknown): RefreshResult {
  return error instanceof AuthError ? 'refused' : 'failed';
}

/**
 * A refresh sent to the provider's token endpoint as a child span
 * (`refresh_token`, under the invocation that needed it), a
 * `toolsteps.token.refresh` event on it, and the refreshes metric by result.
 */
export function observedRefresh(
  integration: string,
  connection: string,
  work: () => Promise<Connection>,
): Promise<Connection> {
  if (!telemetryRegistered()) return work();
  const attributes = { 'toolsteps.integration': integration, 'toolsteps.connection.id': connection };
  return inSpan('refresh_token', { kind: 'internal', attributes }, async (span) => {
    const settle = (result: RefreshResult) => {
      if (span) {
        setSafeAttributes(span, { 'toolsteps.token.refresh': result });
        addSafeEvent(span, 'toolsteps.token.refresh', { 'toolsteps.token.refresh': result });
      }
      instruments()?.tokenRefreshes.add(
        1,
        safeAttributes({ 'toolsteps.integration': integration, 'toolsteps.token.refresh': result }),
      );
    };
    try {
      const refreshed = await work();
      settle('done');
      return refreshed;
    } catch (error) {
      settle(resultOf(error));
      throw error;
    }
  });
}

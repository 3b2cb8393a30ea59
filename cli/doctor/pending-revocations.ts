import type { DoctorCheck } from './doctor-check.js';

/** What doctor shows of a pending revocation: its public part, no token. */
export interface PendingRevocationView {
  id: string;
  tenant: string;
  connection: { id: string; integration: string };
  attempts: number;
  nextAttemptAt: number;
  lastError?: { code: string; status?: number | undefined } | undefined;
}

/**
 * Removed connections whose grant the provider has not confirmed taking
 * back: each is a grant that may still be alive, so any warns, with the
 * command that retries them.
 */
export async function checkPendingRevocations(
  list: () => Promise<PendingRevocationView[]>,
): Promise<DoctorCheck> {
  const pending = await list();
  if (!pending.length) {
    return { name: 'revocations', status: 'ok', summary: 'no pending revocations', details: [] };
  }
  const details = pending.map((one) => {
    const error = one.lastError
      ? `, last ${one.lastError.code}${one.lastError.status ? ` (${one.lastError.status})` : ''}`
      : '';
    return `${one.tenant}/${one.connection.id} (${one.connection.integration}, ${one.id}): ${one.attempts} ${one.attempts === 1 ? 'try' : 'tries'}${error}, next after ${new Date(one.nextAttemptAt).toISOString()}`;
  });
  return {
    name: 'revocations',
    status: 'warn',
    summary: `${pending.length} removed connection${pending.length === 1 ? '' : 's'} not yet revoked at the provider: toolsteps connections revoke-pending`,
    details,
  };
}

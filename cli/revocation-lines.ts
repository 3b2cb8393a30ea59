import type { RevocationReport } from '../src/model/revocation-report.js';

/** One line saying what became of a removed connection's grant at its provider; no token, no provider words. */
export function revocationLine(subject: string, report: RevocationReport): string {
  switch (report.state) {
    case 'revoked':
      return `${subject}: revoked at the provider.`;
    case 'already_ended':
      return `${subject}: nothing to revoke at the provider (${report.reason}).`;
    case 'not_revocable':
      return `${subject}: not revoked at the provider: ${report.reason}.`;
    case 'pending': {
      const next =
        report.nextAttemptAt === undefined ? '' : ` after ${new Date(report.nextAttemptAt).toISOString()}`;
      return `${subject}: revocation at the provider failed (${report.code ?? 'unknown'}, try ${report.attempts ?? '?'}); kept and tried again${next} by \`toolsteps connections revoke-pending\`.`;
    }
    case 'gave_up':
      return `${subject}: gave up revoking at the provider: ${report.reason}.`;
  }
}

/** Whether a report leaves the grant possibly alive at the provider: the command then exits 1. */
export function revocationTroubled(report: RevocationReport): boolean {
  return report.state === 'pending' || report.state === 'gave_up';
}

import type { TenantId } from '../../tenants/tenant-id.js';
import type { TokenRevocations } from '../../tenants/token-revocations.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

/**
 * Revocations in `toolsteps.token_revocations`, in the tenant's own
 * transaction (row-level security as for every table). A row past its
 * token's expiry no longer counts, and is deleted by the next revocation
 * in the tenant.
 */
export class PostgresTokenRevocations implements TokenRevocations {
  constructor(private readonly sessions: TenantSessions) {}

  revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void> {
    return this.sessions.inTenant(tenant, async (client) => {
      await client.query(
        `DELETE FROM ${SCHEMA}.token_revocations WHERE tenant = $1 AND expires_at <= now()`,
        [tenant],
      );
      await client.query(
        `INSERT INTO ${SCHEMA}.token_revocations (tenant, token_id, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (tenant, token_id) DO UPDATE SET expires_at = GREATEST(${SCHEMA}.token_revocations.expires_at, EXCLUDED.expires_at)`,
        [tenant, tokenId, until.toISOString()],
      );
    });
  }

  isRevoked(tenant: TenantId, tokenId: string): Promise<boolean> {
    return this.sessions.inTenant(tenant, async (client) => {
      const { rows } = await client.query(
        `SELECT 1 FROM ${SCHEMA}.token_revocations WHERE tenant = $1 AND token_id = $2 AND expires_at > now()`,
        [tenant, tokenId],
      );
      return rows.length > 0;
    });
  }
}

import type { TenantId } from '../../tenants/tenant-id.js';
import { type TenantLimitStore, TenantLimits } from '../../tenants/tenant-limits.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

/** One tenant's limits in `toolsteps.tenant_limits` (migration 4), one row per tenant, behind the tenant wall. */
export class PostgresLimitStore implements TenantLimitStore {
  constructor(
    private readonly sessions: TenantSessions,
    private readonly tenant: TenantId,
  ) {}

  get(): Promise<TenantLimits> {
    return this.sessions.inTenant(this.tenant, async (client) => {
      const { rows } = await client.query<{ limits: unknown }>(
        `SELECT limits FROM ${SCHEMA}.tenant_limits WHERE tenant = $1`,
        [this.tenant],
      );
      return rows[0] ? TenantLimits.parse(rows[0].limits) : {};
    });
  }

  async set(limits: TenantLimits): Promise<TenantLimits> {
    const checked = TenantLimits.parse(limits);
    await this.sessions.inTenant(this.tenant, (client) =>
      client.query(
        `INSERT INTO ${SCHEMA}.tenant_limits (tenant, limits) VALUES ($1, $2)
         ON CONFLICT (tenant) DO UPDATE SET limits = EXCLUDED.limits, updated_at = now()`,
        [this.tenant, JSON.stringify(checked)],
      ),
    );
    return checked;
  }
}

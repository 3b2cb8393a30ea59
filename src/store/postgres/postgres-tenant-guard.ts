import type { TenantId } from '../../tenants/tenant-id.js';
import { GuardReading } from '../sealed/guard-reading.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { FIRST_GUARD, type GuardSeal, type GuardState, type TenantGuard } from '../sealed/tenant-guard.js';
import { SCHEMA } from './migrations/migration.js';
import { type PostgresDataKey, writeGuard } from './postgres-data-key.js';
import type { TenantSessions } from './tenant-sessions.js';

/** The row a guard read answers: the tenant's wrapped data key and sealed guard, each null when absent. */
interface GuardRow {
  wrapped: string | null;
  guard: string | null;
}

/** The tenant's data key and guard, the data key row locked: writers of one tenant's guard take turns. */
const LOCKED_READ = `SELECT d.wrapped, g.sealed AS guard FROM ${SCHEMA}.data_keys d
  LEFT JOIN ${SCHEMA}.tenant_guards g ON g.tenant = d.tenant
  WHERE d.tenant = $1 FOR UPDATE OF d`;

/**
 * One tenant's guard in `toolsteps.tenant_guards` (migration 5), beside its
 * data key in `data_keys`: read on every request in one round trip
 * (`readInTenant`, both rows in one statement), written in the tenant's
 * transaction with the data key row locked, so writers take turns and a
 * guard is never sealed with a key that is not the stored one.
 */
export class PostgresTenantGuard implements TenantGuard {
  private readonly reading: GuardReading;

  constructor(
    private readonly sessions: TenantSessions,
    private readonly tenant: TenantId,
    private readonly dataKey: PostgresDataKey,
    private readonly seal: GuardSeal,
  ) {
    this.reading = new GuardReading(seal, (wrapped) => dataKey.boxOf(wrapped));
  }

  async state(): Promise<GuardState> {
    const [row] = await this.sessions.readInTenant<GuardRow>(
      this.tenant,
      (literal) =>
        `SELECT (SELECT wrapped FROM ${SCHEMA}.data_keys WHERE tenant = ${literal(this.tenant)}) AS wrapped,
                (SELECT sealed FROM ${SCHEMA}.tenant_guards WHERE tenant = ${literal(this.tenant)}) AS guard`,
    );
    return this.reading.state({ wrapped: row?.wrapped ?? null, guard: row?.guard ?? null }).state;
  }

  async update(change: (state: GuardState) => Omit<GuardState, 'version'>): Promise<GuardState> {
    const written = await this.sessions.inTenant(this.tenant, async (client) => {
      await this.dataKey.boxIn(client, true);
      const { rows } = await client.query<GuardRow>(LOCKED_READ, [this.tenant]);
      const { state, box } = this.reading.state({
        wrapped: rows[0]?.wrapped ?? null,
        guard: rows[0]?.guard ?? null,
      });
      const next = { ...change(state), version: state.version + 1 };
      await writeGuard(client, this.tenant, this.seal.seal(box as SecretBox, next));
      return { next, box: box as SecretBox };
    });
    this.reading.saw(written.box, written.next.version);
    return written.next;
  }

  /**
   * Seals a first, empty guard for a tenant whose data key has none (made by
   * an earlier toolsteps), as `connections rekey` does once after upgrading:
   * an operator's step, since a guard deleted by a writer looks the same.
   * True when it made one.
   */
  adopt(): Promise<boolean> {
    return this.sessions.inTenant(this.tenant, async (client) => {
      const { rows } = await client.query<GuardRow>(LOCKED_READ, [this.tenant]);
      const wrapped = rows[0]?.wrapped;
      if (!wrapped || rows[0]?.guard) return false;
      await writeGuard(client, this.tenant, this.seal.seal(this.dataKey.boxOf(wrapped), FIRST_GUARD));
      return true;
    });
  }
}

import { StorageError, TamperedRecordError } from '../../errors/index.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { PgClient } from '../../peers/pg-client.js';
import { type GuardRead, GuardReading, type GuardUpgrade } from '../sealed/guard-reading.js';
import type { SecretBox } from '../sealed/secret-box.js';
import type { GuardSeal, GuardState, TenantGuard } from '../sealed/tenant-guard.js';
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

/** Processes racing to upgrade one tenant re-read; past this many lost races something else is wrong. */
const MAX_ATTEMPTS = 20;

/**
 * Applies a pre-guard tenant's upgrade (`GuardUpgrade`) in the caller's
 * transaction of the tenant, the data key row locked, only while both rows
 * still hold what was read; true when it did.
 */
async function applyUpgrade(client: PgClient, tenant: TenantId, upgrade: GuardUpgrade): Promise<boolean> {
  const { rows } = await client.query<GuardRow>(LOCKED_READ, [tenant]);
  if ((rows[0]?.wrapped ?? null) !== upgrade.read.wrapped) return false;
  if ((rows[0]?.guard ?? null) !== upgrade.read.guard) return false;
  await client.query(`UPDATE ${SCHEMA}.data_keys SET wrapped = $2, updated_at = now() WHERE tenant = $1`, [
    tenant,
    upgrade.wrapped,
  ]);
  if (upgrade.guard !== null) await writeGuard(client, tenant, upgrade.guard);
  return true;
}

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
    this.reading = new GuardReading(seal, dataKey.wrapping);
  }

  private async read(): Promise<GuardRead> {
    const [row] = await this.sessions.readInTenant<GuardRow>(
      this.tenant,
      (literal) =>
        `SELECT (SELECT wrapped FROM ${SCHEMA}.data_keys WHERE tenant = ${literal(this.tenant)}) AS wrapped,
                (SELECT sealed FROM ${SCHEMA}.tenant_guards WHERE tenant = ${literal(this.tenant)}) AS guard`,
    );
    return { wrapped: row?.wrapped ?? null, guard: row?.guard ?? null };
  }

  /**
   * What the tenant's rows prove, read in one statement. A tenant from an
   * earlier toolsteps is upgraded on the way (`GuardUpgrade`): of processes
   * racing on it one transaction lands, the others read again.
   */
  async state(): Promise<GuardState> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const proven = this.reading.state(await this.read());
      const upgrade = proven.upgrade;
      if (!upgrade) return proven.state;
      if (await this.sessions.inTenant(this.tenant, (client) => applyUpgrade(client, this.tenant, upgrade))) {
        this.reading.upgraded(proven);
        return proven.state;
      }
    }
    throw new StorageError(
      `The revocations and limits of tenant ${this.tenant} changed under ${MAX_ATTEMPTS} reads in a row; try again.`,
    );
  }

  async update(change: (state: GuardState) => Omit<GuardState, 'version'>): Promise<GuardState> {
    const written = await this.sessions.inTenant(this.tenant, async (client) => {
      await this.dataKey.boxIn(client, true);
      const { rows } = await client.query<GuardRow>(LOCKED_READ, [this.tenant]);
      const proven = this.reading.state({ wrapped: rows[0]?.wrapped ?? null, guard: rows[0]?.guard ?? null });
      // A pre-guard tenant is upgraded in this transaction: the row is locked, what was read is current.
      if (proven.upgrade) await applyUpgrade(client, this.tenant, proven.upgrade);
      const next = { ...change(proven.state), version: proven.state.version + 1 };
      await writeGuard(client, this.tenant, this.seal.seal(proven.box as SecretBox, next));
      return { next, proven };
    });
    if (written.proven.upgrade) this.reading.upgraded(written.proven);
    this.reading.saw(written.proven.box as SecretBox, written.next.version);
    return written.next;
  }

  /**
   * Upgrades a tenant whose data key an earlier toolsteps made, as any read
   * does (`connections rekey` calls it for every tenant, so none waits for
   * its first request). True when it sealed a first guard; a tenant whose
   * guard cannot be proven is left refused, not rekeyed into trust.
   */
  async upgrade(): Promise<boolean> {
    const before = await this.read();
    try {
      await this.state();
    } catch (error) {
      if (error instanceof TamperedRecordError) return false;
      throw error;
    }
    return before.wrapped !== null && before.guard === null;
  }
}

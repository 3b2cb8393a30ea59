import type { Connection } from '../../model/connection.js';
import { checkConnection } from '../check-connection.js';
import { CONNECTION_SHAPE, connectionWithoutSecrets } from '../connection-shape.js';
import type { ConnectionStore } from '../connection-store.js';
import { parsePublicPart } from '../redis/public-records.js';
import type { AdvisoryLocks } from './advisory-locks.js';
import { type PostgresRecordScope, PostgresRecordStore } from './postgres-record-store.js';
import { PostgresRefreshJournal } from './postgres-refresh-journal.js';

/**
 * One tenant's connections in Postgres, their secrets sealed as in Redis.
 * `withConnectionLock` is an advisory lock held across every process (a
 * token refresh runs in one worker at a time; a holder that dies releases
 * it), and the refresh journal is a table of marks, never tokens.
 */
export class PostgresConnectionStore extends PostgresRecordStore<Connection> implements ConnectionStore {
  readonly refreshJournal: PostgresRefreshJournal;

  constructor(
    scope: Omit<PostgresRecordScope<Connection>, 'table' | 'shape' | 'check'>,
    private readonly locks: AdvisoryLocks,
  ) {
    super({ ...scope, table: 'connections', shape: CONNECTION_SHAPE, check: checkConnection });
    this.refreshJournal = new PostgresRefreshJournal(scope.sessions, scope.tenant);
  }

  withConnectionLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    return this.locks.withLock(this.scope.tenant, `connection:${id}`, work);
  }

  /**
   * This tenant's connections without their secrets, read without the
   * encryption key (`connections list` where TOOLSTEPS_ENCRYPTION_KEY is not
   * set): each public part checked as a stored connection is.
   */
  async listWithoutSecrets(): Promise<Omit<Connection, 'secrets'>[]> {
    const { sessions, tenant } = this.scope;
    const parts = await sessions.inTenant(tenant, (client) => this.rows.readPublic(client, tenant));
    return parts.map(({ id, publicJson }) =>
      connectionWithoutSecrets(parsePublicPart(publicJson, `connection ${id}`)),
    );
  }
}

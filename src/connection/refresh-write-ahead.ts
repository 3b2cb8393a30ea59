import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../model/clock.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import { type RefreshEntry, type RefreshJournal, spentMark } from '../store/refresh-journal.js';
import { cannotWriteAhead, refreshingElsewhere, refusedBefore } from './refresh-errors.js';

/** Whether the process that wrote a `sending` entry may still hold what its refresh got. */
function senderMayBeAlive(entry: Extract<RefreshEntry, { state: 'sending' }>, now: number): boolean {
  if (now >= entry.until) return false;
  // On this host the process table says; elsewhere only the entry's deadline can.
  if (entry.host !== os.hostname()) return true;
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What one refresher writes in a connection's refresh journal around the
 * token request: the `sending` entry before it, and after it either nothing
 * (cleared) or that the provider refused the token.
 */
export class RefreshWriteAhead {
  /** Names this refresher in the `sending` entries it writes. */
  private readonly holder = randomBytes(8).toString('hex');

  constructor(
    private readonly journal: RefreshJournal,
    private readonly clock: Clock,
    /** How long a `sending` entry stands: the token request, the save's retries, and a margin. */
    private readonly standsMs: number,
  ) {}

  /**
   * Refuses to send a refresh token the provider refused while the
   * connection was as it is, or one another live process is sending or has
   * spent without saving what it got (nothing is sent: the error says so);
   * then records that this refresher is sending it.
   */
  async before(
    integration: Integration,
    current: Connection,
    entry: RefreshEntry | undefined,
  ): Promise<void> {
    const now = this.clock.now();
    const spent = spentMark(current.secrets.refreshToken as string);
    if (entry?.spent === spent) {
      if (entry.state === 'refused' && entry.updatedAt === current.updatedAt) {
        throw refusedBefore(integration, current.id, entry);
      }
      if (entry.state === 'sending' && entry.holder !== this.holder && senderMayBeAlive(entry, now)) {
        throw refreshingElsewhere(current.id, entry);
      }
    }
    try {
      await this.journal.write(current.id, {
        state: 'sending',
        spent,
        holder: this.holder,
        host: os.hostname(),
        pid: process.pid,
        at: now,
        until: now + this.standsMs,
      });
    } catch (error) {
      throw cannotWriteAhead(current.id, error);
    }
  }

  /** The provider refused the refresh token `current` holds: not sent again until the connection changes. */
  async refused(current: Connection): Promise<void> {
    const entry: RefreshEntry = {
      state: 'refused',
      spent: spentMark(current.secrets.refreshToken as string),
      at: this.clock.now(),
      updatedAt: current.updatedAt,
    };
    await this.journal.write(current.id, entry).catch(() => undefined);
  }

  /** Nothing came back that anyone could hold: the token may be sent again. */
  async cleared(id: string): Promise<void> {
    await this.journal.clear(id).catch(() => undefined);
  }
}

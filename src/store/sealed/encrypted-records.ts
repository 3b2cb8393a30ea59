import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { REMOVE_RECORD, WRITE_RECORD } from '../../coordination/redis-scripts.js';
import { NotFoundError, TimeoutError } from '../../errors/index.js';
import { isWholeRecord, listPublicRecords, recordIndexKey } from './public-records.js';
import type { SecretBox } from './secret-box.js';

/** How a record splits into what anyone may read and what only the key opens. */
export interface RecordShape<T> {
  /** Key kind in Redis, e.g. `conn`. */
  kind: string;
  /** Says what a record is in messages, e.g. `connection`. */
  noun: string;
  split(record: T): { publicPart: Record<string, unknown>; secrets: Record<string, unknown> };
  /** Joins the parts back and validates them (the zod schema), throwing its typed error. */
  join(publicPart: Record<string, unknown>, secrets: Record<string, unknown>): T;
}

interface Stored {
  publicPart: Record<string, unknown>;
  kid: string;
  version: string;
  sealed: string;
}

/** A change that lost its compare-and-set this many times in a row is contended beyond reason. */
const MAX_WRITE_TRIES = 50;

/**
 * Records in Redis with their secrets sealed (`SecretBox`): one hash per
 * record with `public` (JSON, readable for listing), `secrets` (AES-256-GCM),
 * `kid` (the key that sealed them) and `version`, plus an index set. Writes
 * are compare-and-set on `version`, so every worker's `update` is atomic.
 */
export class EncryptedRecords<T> {
  private readonly index: string;

  constructor(
    private readonly coordinator: RedisCoordinator,
    private readonly box: SecretBox,
    private readonly shape: RecordShape<T>,
  ) {
    this.index = recordIndexKey(coordinator, shape.kind);
  }

  private keyOf(id: string): string {
    return this.coordinator.key(this.shape.kind, id);
  }

  private context(id: string): string {
    return `${this.shape.noun} ${id}`;
  }

  private async read(id: string): Promise<Stored | undefined> {
    const hash = await this.coordinator.client.hgetall(this.keyOf(id));
    if (!isWholeRecord(hash)) return undefined;
    return {
      publicPart: JSON.parse(hash.public as string) as Record<string, unknown>,
      kid: hash.kid as string,
      version: hash.version ?? '',
      sealed: hash.secrets as string,
    };
  }

  private open(id: string, stored: Stored): T {
    const secrets = JSON.parse(this.box.open({ kid: stored.kid, data: stored.sealed }, this.context(id)));
    return this.shape.join(stored.publicPart, secrets as Record<string, unknown>);
  }

  private async write(id: string, record: T, expected: string | undefined): Promise<boolean> {
    const { publicPart, secrets } = this.shape.split(record);
    const sealed = this.box.seal(JSON.stringify(secrets), this.context(id));
    const written = await this.coordinator.client.eval(
      WRITE_RECORD,
      2,
      this.keyOf(id),
      this.index,
      expected ?? '',
      JSON.stringify(publicPart),
      sealed.data,
      sealed.kid,
      id,
      expected === undefined ? '1' : '0',
    );
    return written === 1;
  }

  async get(id: string): Promise<T | undefined> {
    const stored = await this.read(id);
    return stored ? this.open(id, stored) : undefined;
  }

  async ids(): Promise<string[]> {
    return (await this.coordinator.client.smembers(this.index)).sort();
  }

  /** The public parts only: listing needs no key. */
  listPublic(): Promise<Record<string, unknown>[]> {
    return listPublicRecords(this.coordinator, this.shape.kind);
  }

  async list(): Promise<T[]> {
    const found = await Promise.all((await this.ids()).map((id) => this.read(id)));
    return found.flatMap((stored) => (stored ? [this.open(String(stored.publicPart.id), stored)] : []));
  }

  async put(id: string, record: T): Promise<void> {
    await this.write(id, record, undefined);
  }

  /** Read, change, compare-and-set; again from the new state when another worker wrote in between. */
  async update(id: string, change: (current: T) => T, reseal = false): Promise<T> {
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries += 1) {
      const stored = await this.read(id);
      if (!stored) throw new NotFoundError(`No ${this.shape.noun} with id "${id}".`);
      if (reseal && stored.kid === this.box.keyId) return this.open(id, stored);
      const next = change(this.open(id, stored));
      if (await this.write(id, next, stored.version)) return next;
    }
    throw new TimeoutError(`Too many workers changed ${this.context(id)} at once; try again.`);
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.coordinator.client.eval(REMOVE_RECORD, 2, this.keyOf(id), this.index, id);
    return removed === 1;
  }

  /** Seals every record with the current key; returns how many were sealed with an older one. */
  async rekey(): Promise<{ rekeyed: number; total: number }> {
    const ids = await this.ids();
    let rekeyed = 0;
    for (const id of ids) {
      const stored = await this.read(id);
      if (!stored || stored.kid === this.box.keyId) continue;
      await this.update(id, (record) => record, true);
      rekeyed += 1;
    }
    return { rekeyed, total: ids.length };
  }
}

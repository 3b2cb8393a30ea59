import { TimeoutError } from '../../errors/index.js';
import { noRecordWithId, type RecordIdRule } from '../record-id.js';
import { OpenedRecords } from '../sealed/opened-records.js';
import { type SealedRecord, SealedRecords, sealedRecordOf } from '../sealed/sealed-records.js';
import { isDataKeyId, SecretBox } from '../sealed/secret-box.js';
import { listPublicRecords, recordIndexKey } from './public-records.js';
import type { RedisHandle } from './redis-handle.js';
import { REMOVE_RECORD, WRITE_RECORD } from './redis-scripts.js';

/** How a record splits into what anyone may read and what only the key opens; `RecordIdRule` its ids. */
export interface RecordShape<T> extends RecordIdRule {
  /** Key kind in Redis, e.g. `conn`. */
  kind: string;
  split(record: T): { publicPart: Record<string, unknown>; secrets: Record<string, unknown> };
  /** Joins the parts back and validates them (the zod schema), throwing its typed error. */
  join(publicPart: Record<string, unknown>, secrets: Record<string, unknown>): T;
}

/**
 * The version a write gives a record: above the one it replaces, and above
 * any version written before now (microseconds of the clock), so a record
 * removed and made again, or made again after Redis lost it, still reads as
 * newer than every copy a process saw before. Versions only grow, which is
 * how a restored older copy is told apart (`SealedRecords`).
 */
export function nextVersion(expected: string | undefined): string {
  return String(Math.max(Date.now() * 1000, Number(expected ?? 0) + 1));
}

/** What `rekey` may do with records of the format from before public parts were sealed. */
export interface RekeyOptions {
  /** Seal them as they stand: the operator checked their public fields (`connections rekey --trust-unsealed`). */
  trustUnsealed?: boolean;
}

/** What a rekey did: records re-sealed, records in all, and the ids left unsealed (still refused when used). */
export interface RekeyCounts {
  rekeyed: number;
  total: number;
  unsealed: string[];
}

/** Where a store's box comes from: a tenant's data key, opened from Redis on first use (`TenantDataKey`). */
export interface KeySource {
  /** `forWriting`: the box will seal, so a key made on first use must be made now. */
  box(forWriting?: boolean): Promise<SecretBox>;
  /**
   * Where the key is in Redis and the box a value read there (null: none) opens
   * to, as `box()` would answer: a record's read fetches its key in the same round trip.
   */
  readAlong?(): { key: string; boxOf(stored: string | null): SecretBox };
}

/** A change that lost its compare-and-set this many times in a row is contended beyond reason. */
const MAX_WRITE_TRIES = 50;

/**
 * Records in Redis with their secrets sealed (`SecretBox`) and their public
 * part bound to the seal (`SealedRecords`): one hash per record with
 * `public` (JSON, readable for listing), `secrets` (AES-256-GCM), `kid`,
 * `version` and `format`, plus an index set. Writes are compare-and-set on
 * `version`, so every worker's `update` is atomic.
 */
export class EncryptedRecords<T> {
  private readonly index: string;
  private readonly sealing: SealedRecords;
  private readonly keys: KeySource;
  private box: SecretBox | undefined;
  private readonly opened: OpenedRecords<T>;

  constructor(
    private readonly coordinator: RedisHandle,
    keys: SecretBox | KeySource,
    private readonly shape: RecordShape<T>,
    tenant = 'default',
  ) {
    this.index = recordIndexKey(coordinator, shape.kind);
    this.keys = keys instanceof SecretBox ? { box: async () => keys } : keys;
    this.sealing = new SealedRecords(() => this.box as SecretBox, {
      tenant,
      namespace: coordinator.prefix,
      kind: shape.kind,
      noun: shape.noun,
    });
    this.opened = new OpenedRecords(this.sealing, () => this.box, shape.join.bind(shape));
  }

  private keyOf(id: string): string {
    return this.coordinator.key(this.shape.kind, id);
  }

  private async read(id: string): Promise<SealedRecord | undefined> {
    return sealedRecordOf(await this.coordinator.client.hgetall(this.keyOf(id)));
  }

  private open(id: string, stored: SealedRecord, floor: number, legacy: boolean): T {
    if (!legacy) return this.opened.open(id, stored, floor);
    const { publicPart, secrets } = this.sealing.openLegacy(id, stored);
    return this.shape.join(publicPart, secrets);
  }

  /**
   * Reads and opens a record. The lowest version it may have is taken before
   * the read: a version stored before the read began is older than any the
   * read can return, unless someone restored an older copy.
   */
  private async readOpened(
    id: string,
    legacy = false,
  ): Promise<{ stored: SealedRecord; record: T } | undefined> {
    const floor = this.sealing.floor(id);
    const stored = await this.read(id);
    if (!stored) return undefined;
    return { stored, record: this.open(id, stored, floor, legacy) };
  }

  /** Writes `record` as the next version when the stored version is still `expected` (absent: none). */
  private async write(id: string, record: T, expected: string | undefined): Promise<boolean> {
    const { publicPart, secrets } = this.shape.split(record);
    const version = nextVersion(expected);
    const sealed = this.sealing.seal(id, version, JSON.stringify(publicPart), secrets);
    const written = await this.coordinator.client.eval(
      WRITE_RECORD,
      2,
      this.keyOf(id),
      this.index,
      expected ?? '',
      sealed.publicJson,
      sealed.sealed,
      sealed.kid,
      id,
      version,
      sealed.format,
    );
    if (written !== 1) return false;
    this.sealing.written(id, version);
    return true;
  }

  /** Opens the box (a tenant's data key) before a record is opened, or sealed (`forWriting`). */
  private async ready(forWriting = false): Promise<void> {
    this.useBox(await this.keys.box(forWriting), forWriting);
  }

  private useBox(box: SecretBox, forWriting: boolean): void {
    // A read that found no data key yet never replaces one a concurrent write just opened.
    if (forWriting || !this.box || isDataKeyId(box.keyId)) this.box = box;
  }

  async get(id: string): Promise<T | undefined> {
    const along = this.keys.readAlong?.();
    if (!along) {
      await this.ready();
      return (await this.readOpened(id))?.record;
    }
    // The record and its key in one round trip (a script: GET, then HGETALL); the box is chosen as `ready` would.
    const floor = this.sealing.floor(id);
    const { value, hash } = await this.coordinator.readValueAndHash(along.key, this.keyOf(id));
    this.useBox(along.boxOf(value), false);
    const stored = sealedRecordOf(hash);
    return stored && this.opened.open(id, stored, floor);
  }

  async ids(): Promise<string[]> {
    return (await this.coordinator.client.smembers(this.index)).sort();
  }

  /** The public parts only: listing needs no key, so nothing vouches for them, and nothing is sent with them. */
  listPublic(): Promise<Record<string, unknown>[]> {
    return listPublicRecords(this.coordinator, this.shape.kind, this.shape.noun);
  }

  async list(): Promise<T[]> {
    await this.ready();
    const found = await Promise.all((await this.ids()).map((id) => this.readOpened(id)));
    return found.flatMap((opened) => (opened ? [opened.record] : []));
  }

  /** Writes the whole record, whatever is stored: compare-and-set against what was just read. */
  async put(id: string, record: T): Promise<void> {
    await this.ready(true);
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries += 1) {
      const current = await this.coordinator.client.hget(this.keyOf(id), 'version');
      if (await this.write(id, record, current ?? undefined)) return;
    }
    throw new TimeoutError(`Too many workers changed ${this.shape.noun} ${id} at once; try again.`);
  }

  /** Read, change, compare-and-set; again from the new state when another worker wrote in between. */
  async update(id: string, change: (current: T) => T): Promise<T> {
    await this.ready(true);
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries += 1) {
      const opened = await this.readOpened(id);
      if (!opened) throw noRecordWithId(id, this.shape);
      const next = change(opened.record);
      if (await this.write(id, next, opened.stored.version)) return next;
    }
    throw new TimeoutError(`Too many workers changed ${this.shape.noun} ${id} at once; try again.`);
  }

  /**
   * Writes one record back sealed with the current key, in the current
   * format. A record of the earlier format is opened without its public
   * part being vouched for, so only on the operator's word (`trustUnsealed`).
   */
  private async reseal(id: string, stored: SealedRecord, trustUnsealed: boolean): Promise<void> {
    const legacy = !this.sealing.isCurrentFormat(stored);
    const floor = this.sealing.floor(id);
    const record =
      legacy && trustUnsealed ? this.open(id, stored, floor, true) : this.open(id, stored, floor, false);
    if (!(await this.write(id, record, stored.version))) {
      throw new TimeoutError(
        `The ${this.shape.noun} ${id} changed while it was being re-sealed; run the rekey again.`,
      );
    }
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.coordinator.client.eval(REMOVE_RECORD, 2, this.keyOf(id), this.index, id);
    return removed === 1;
  }

  /**
   * Seals every record with the current key, in the current format. Records
   * of the earlier format, whose public part nothing vouches for, are left
   * as they are (and refused when used) unless `trustUnsealed`: the operator
   * says they checked them, and they are sealed as they stand.
   */
  async rekey(options: RekeyOptions = {}): Promise<RekeyCounts> {
    await this.ready(true);
    const ids = await this.ids();
    const counts: RekeyCounts = { rekeyed: 0, total: ids.length, unsealed: [] };
    for (const id of ids) {
      const stored = await this.read(id);
      if (!stored) continue;
      const legacy = !this.sealing.isCurrentFormat(stored);
      if (legacy && !options.trustUnsealed) {
        counts.unsealed.push(id);
        continue;
      }
      if (!legacy && stored.kid === this.sealing.keyId) continue;
      await this.reseal(id, stored, Boolean(options.trustUnsealed));
      counts.rekeyed += 1;
    }
    return counts;
  }
}

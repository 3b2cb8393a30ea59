import { EncryptionKeyError, TamperedRecordError } from '../../errors/index.js';
import { isWholeRecord, parsePublicPart } from '../redis/public-records.js';
import { isDataKeyId, type SecretBox } from './secret-box.js';

/** A record as stored: its public part as written, its sealed secrets, and what the seal is bound to. */
export interface SealedRecord {
  publicJson: string;
  kid: string;
  version: string;
  sealed: string;
  /** Absent on records written before public parts were bound to the seal. */
  format?: string | undefined;
}

/** A record's hash as read, or undefined when it is not a whole record. */
export function sealedRecordOf(hash: Record<string, string>): SealedRecord | undefined {
  if (!isWholeRecord(hash)) return undefined;
  return {
    publicJson: hash.public as string,
    kid: hash.kid as string,
    version: hash.version ?? '',
    sealed: hash.secrets as string,
    format: hash.format,
  };
}

/**
 * Where a record lives: its tenant, the store's namespace (the Redis key
 * prefix), its kind (`conn`, `sub`) and the word messages use for it.
 */
export interface RecordScope {
  tenant: string;
  namespace: string;
  kind: string;
  noun: string;
}

/** The format whose seal covers the public part, the tenant, the kind, the id and the version. */
const BOUND_FORMAT = '2';

/**
 * Seals a record's secrets bound to everything that decides where they go
 * and what the record may do: the whole public part as stored (a base URL, a
 * subscription's target and constraints), the tenant, the kind, the id and
 * the version. Changing any of them in the store (a Redis writer without the
 * key pointing `baseUrl` at its own server, a record copied onto another id)
 * makes the secrets refuse to open, so the record is refused before anything
 * is sent with them.
 *
 * A whole older copy restored over a record still opens: it was sealed as it
 * was. Versions only grow, so this process refuses a copy older than one it
 * has already read or written (`rolled_back`); a process that never saw the
 * newer one cannot tell, but such a copy can only hold what the record once
 * held, never an address it never had.
 */
export class SealedRecords {
  /** The highest version of each record this process has read or written. */
  private readonly seen = new Map<string, number>();
  /** `keys` answers the box to use now: a tenant's is opened from Redis before the first record (`TenantDataKey`). */
  constructor(
    private readonly keys: () => SecretBox,
    private readonly scope: RecordScope,
  ) {}

  private get box(): SecretBox {
    return this.keys();
  }

  get keyId(): string {
    return this.box.keyId;
  }

  isCurrentFormat(stored: SealedRecord): boolean {
    return stored.format === BOUND_FORMAT;
  }

  /** Names the record in messages, and was the whole seal binding of the earlier format. */
  private context(id: string): string {
    return `${this.scope.noun} ${id}`;
  }

  private binding(id: string, version: string, publicJson: string): string {
    const { tenant, namespace, kind } = this.scope;
    return JSON.stringify([
      'toolsteps-record',
      BOUND_FORMAT,
      tenant,
      namespace,
      kind,
      id,
      version,
      publicJson,
    ]);
  }

  seal(
    id: string,
    version: string,
    publicJson: string,
    secrets: Record<string, unknown>,
  ): Required<SealedRecord> {
    const sealed = this.box.seal(
      JSON.stringify(secrets),
      this.context(id),
      this.binding(id, version, publicJson),
    );
    return { publicJson, kid: sealed.kid, version, sealed: sealed.data, format: BOUND_FORMAT };
  }

  /** The lowest version a read of the record that starts now may find: the highest this process has seen. */
  floor(id: string): number {
    return this.seen.get(id) ?? 0;
  }

  /**
   * The record's parts, once its seal vouches for all of them. `floor` is
   * what `floor(id)` said before the record was read.
   * @throws TamperedRecordError `altered`, `rolled_back` or `unsealed_format`.
   * @throws EncryptionKeyError `wrong` when no key we hold sealed it.
   */
  open(
    id: string,
    stored: SealedRecord,
    floor: number,
  ): { publicPart: Record<string, unknown>; secrets: Record<string, unknown> } {
    const version = this.checkVersion(id, stored, floor);
    const secrets = this.openSecrets(id, stored);
    this.remember(id, version);
    return { publicPart: parsePublicPart(stored.publicJson, this.context(id)), secrets };
  }

  /**
   * What `open` checks and records besides the seal, for a record whose seal
   * this process has already opened as stored, byte for byte, with the same
   * box (`OpenedRecords`): its format, and that it is no older than `floor`.
   * @throws TamperedRecordError `rolled_back` or `unsealed_format`.
   */
  reopen(id: string, stored: SealedRecord, floor: number): void {
    this.remember(id, this.checkVersion(id, stored, floor));
  }

  private checkVersion(id: string, stored: SealedRecord, floor: number): number {
    if (!this.isCurrentFormat(stored)) {
      throw new TamperedRecordError(
        `The ${this.context(id)} was stored before its public fields were sealed with its secrets, so nothing vouches for where they would be sent: check its fields (\`toolsteps connections list\`), then seal it with \`toolsteps connections rekey --trust-unsealed\`.`,
        'unsealed_format',
        { context: { record: this.context(id) } },
      );
    }
    const version = Number(stored.version);
    if (!(version >= floor)) {
      throw new TamperedRecordError(
        `The ${this.context(id)} is an older copy than one this process has already seen: it was restored over the newer one, so it is not used.`,
        'rolled_back',
        { context: { record: this.context(id) } },
      );
    }
    return version;
  }

  /** A record of the earlier format, trusted on the operator's word (`connections rekey --trust-unsealed`). */
  openLegacy(
    id: string,
    stored: SealedRecord,
  ): { publicPart: Record<string, unknown>; secrets: Record<string, unknown> } {
    const secrets = this.box.open({ kid: stored.kid, data: stored.sealed }, this.context(id));
    return {
      publicPart: parsePublicPart(stored.publicJson, this.context(id)),
      secrets: JSON.parse(secrets) as Record<string, unknown>,
    };
  }

  private openSecrets(id: string, stored: SealedRecord): Record<string, unknown> {
    const binding = this.binding(id, stored.version, stored.publicJson);
    if (!this.box.holds(stored.kid) && isDataKeyId(stored.kid)) {
      throw new TamperedRecordError(
        `The ${this.context(id)} was sealed with a data key this tenant does not hold (another tenant's, or one destroyed when its tenant was erased), so it is not used and nothing is sent with it.`,
        'altered',
        { context: { record: this.context(id) } },
      );
    }
    const box = this.box;
    // A master key we do not hold is a configuration problem, said as such; a key we hold that does not open it is tampering.
    if (!box.holds(stored.kid)) box.open({ kid: stored.kid, data: stored.sealed }, this.context(id), binding);
    try {
      const plaintext = box.open({ kid: stored.kid, data: stored.sealed }, this.context(id), binding);
      return JSON.parse(plaintext) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof EncryptionKeyError)) throw error;
      throw new TamperedRecordError(
        `The ${this.context(id)} was changed in the store outside toolsteps (its public fields, id or version no longer match its sealed secrets), so it is not used and nothing is sent with it.`,
        'altered',
        { context: { record: this.context(id) }, cause: error },
      );
    }
  }

  /** Records that `version` of the record is now stored: nothing older is accepted from here on. */
  written(id: string, version: string): void {
    this.remember(id, Number(version));
  }

  private remember(id: string, version: number): void {
    if (version > (this.seen.get(id) ?? 0)) this.seen.set(id, version);
  }
}

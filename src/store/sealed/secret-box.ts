import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { EncryptionKeyError } from '../../errors/index.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value as stored: which key sealed it, and `base64(iv | tag | ciphertext)`. */
export interface Sealed {
  kid: string;
  data: string;
}

/** A key's public name: a hash of it, so a stored value says which key opens it without saying the key. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('toolsteps-key-id\0').update(key).digest('hex').slice(0, 16);
}

/** How the id of a tenant's data key begins, so a value sealed with another tenant's is told from a missing master key. */
const DATA_KEY_ID = 'dk-';

/** Whether `kid` names a tenant's data key (`SecretBox.forDataKey`) rather than a master key. */
export function isDataKeyId(kid: string): boolean {
  return kid.startsWith(DATA_KEY_ID);
}

/** 32 fresh random bytes: a new tenant data key. */
export function newDataKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

function parseKey(text: string, variable: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new EncryptionKeyError(
      `${variable} must be ${KEY_BYTES} random bytes in base64 (44 characters; make one with: openssl rand -base64 32).`,
      'malformed',
      { fields: [{ path: variable, message: `${KEY_BYTES} bytes, base64` }] },
    );
  }
  return key;
}

/** What GCM authenticates beside the ciphertext: the record's name, then what is bound to it. */
function additionalData(context: string, binding: string | undefined): Buffer {
  return Buffer.from(binding === undefined ? context : `${context}\0${binding}`);
}

/**
 * Seals secrets with AES-256-GCM before they leave the process. Each value
 * gets a fresh 96-bit IV and is bound to its record (`context`, the
 * additional authenticated data), so a sealed secret copied onto another
 * record does not open. The current key seals; previous keys only open,
 * which is how `connections rekey` rotates.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** The MAC keys derived from `keys`, by key id and purpose. */
  private readonly macKeys = new Map<string, Buffer>();
  private currentId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentId = keyIdOf(current);
    for (const key of [current, ...previous]) this.keys.set(keyIdOf(key), key);
  }

  /** The id of the key this box seals with. */
  get keyId(): string {
    return this.currentId;
  }

  /**
   * A tenant's box: it seals with the tenant's data key, and opens what that
   * key sealed and, besides, what `master`'s keys sealed directly (records
   * stored before tenants had data keys, until a write or `rekey` re-seals them).
   */
  static forDataKey(dataKey: Buffer, master: SecretBox): SecretBox {
    const box = new SecretBox(dataKey);
    box.keys.clear();
    box.currentId = `${DATA_KEY_ID}${keyIdOf(dataKey)}`;
    box.keys.set(box.currentId, dataKey);
    for (const [kid, key] of master.keys) if (!isDataKeyId(kid)) box.keys.set(kid, key);
    return box;
  }

  /**
   * From `TOOLSTEPS_ENCRYPTION_KEY` (and, while rotating, the old keys in
   * `TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS`, comma-separated).
   * @throws EncryptionKeyError `missing` or `malformed`.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): SecretBox {
    const current = env.TOOLSTEPS_ENCRYPTION_KEY;
    if (!current?.trim()) {
      throw new EncryptionKeyError(
        'Secrets shared through Redis are encrypted, and TOOLSTEPS_ENCRYPTION_KEY is not set: give every worker the same 32-byte key in base64 (make one with: openssl rand -base64 32).',
        'missing',
        { fields: [{ path: 'TOOLSTEPS_ENCRYPTION_KEY', message: 'required with TOOLSTEPS_REDIS_URL' }] },
      );
    }
    const previous = (env.TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((item) => item.trim() !== '')
      .map((item) => parseKey(item, 'TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS'));
    return new SecretBox(parseKey(current, 'TOOLSTEPS_ENCRYPTION_KEY'), previous);
  }

  /**
   * `context` names the record (and appears in messages); `binding`, when
   * given, is authenticated with it but never printed: the record's public
   * fields, whose change must make the secrets refuse to open.
   */
  seal(plaintext: string, context: string, binding?: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId) as Buffer, iv);
    cipher.setAAD(additionalData(context, binding));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { kid: this.keyId, data: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  /** Whether a key this box holds has the id `kid` (the current one, or one being rotated out). */
  holds(kid: string): boolean {
    return this.keys.has(kid);
  }

  /** @throws EncryptionKeyError `wrong` when no key we hold opens it. */
  open(sealed: Sealed, context: string, binding?: string): string {
    const key = this.keys.get(sealed.kid);
    if (!key) {
      throw new EncryptionKeyError(
        `The secrets of ${context} were sealed with key ${sealed.kid}, which is neither TOOLSTEPS_ENCRYPTION_KEY (${this.keyId}) nor in TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS.`,
        'wrong',
        { context: { record: context, kid: sealed.kid } },
      );
    }
    const raw = Buffer.from(sealed.data, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(additionalData(context, binding));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch (error) {
      throw new EncryptionKeyError(
        `The secrets of ${context} do not open with key ${sealed.kid}: they were altered, or belong to another record.`,
        'wrong',
        { context: { record: context, kid: sealed.kid }, cause: error },
      );
    }
  }

  /**
   * An HMAC-SHA256 of `text` under a key derived (HKDF) from the current
   * key for `purpose`: authenticates what must not be changed but need not
   * be hidden (audit records). The derived key is never the sealing key.
   */
  mac(text: string, purpose: string): { kid: string; mac: string } {
    return { kid: this.keyId, mac: this.macWith(this.keys.get(this.keyId) as Buffer, text, purpose) };
  }

  /** Whether `mac` is `text`'s under key `kid` (current or previous) for `purpose`; false for a key we do not hold. */
  checkMac(kid: string, text: string, purpose: string, mac: string): boolean {
    const key = this.keys.get(kid);
    if (!key) return false;
    const expected = Buffer.from(this.macWith(key, text, purpose));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private macWith(key: Buffer, text: string, purpose: string): string {
    // Derived once per key and purpose: checking a long trail MACs every record.
    const name = `${keyIdOf(key)}\0${purpose}`;
    let derived = this.macKeys.get(name);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `toolsteps-mac\0${purpose}`, 32));
      this.macKeys.set(name, derived);
    }
    return createHmac('sha256', derived).update(text, 'utf8').digest('base64url');
  }
}

import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { TokenKeyError } from '../errors/token-key-error.js';

/**
 * Fewest bytes a key may have: HMAC-SHA256's own output size, so a guessed
 * key is no easier than a guessed signature (RFC 2104 section 3, and RFC 7518
 * section 3.2 for HS256).
 */
export const TOKEN_KEY_MIN_BYTES = 32;

/** A key id (`kid`): short, printable, safe in a header and an environment variable. */
export const TOKEN_KEY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The id of the key `TOOLSTEPS_TOKEN_KEY` holds alone, when no `TOOLSTEPS_TOKEN_KEYS` names several. */
export const DEFAULT_TOKEN_KEY_ID = 'default';

/** Where a key came from (an error names it) and the id tokens signed with it carry as `kid`. */
export interface TokenKeyOptions {
  id?: string | undefined;
  source?: string | undefined;
}

/**
 * One server key that signs and checks scoped tokens (HMAC-SHA256, JWT's
 * `HS256`), with the id (`kid`) a token names it by. Its bytes stay in a
 * private field: printing, logging or serializing the key shows its id,
 * never its value.
 */
export class TokenKey {
  readonly #bytes: Buffer;
  /** Made once: `jose` caches the WebCrypto key it derives per KeyObject, so one object means one import, not one per request. */
  readonly #secretKey: KeyObject;
  /** The `kid` a token signed with this key carries in its header. */
  readonly id: string;

  /**
   * @param secret the key as text (its UTF-8 bytes) or bytes; a random one: `openssl rand -base64 32`.
   * @throws TokenKeyError (`too_short`) for fewer than 32 bytes, (`malformed`) for a malformed id.
   */
  constructor(secret: string | Uint8Array, options: TokenKeyOptions = {}) {
    const source = options.source ?? 'The token key';
    const bytes = typeof secret === 'string' ? Buffer.from(secret.trim(), 'utf8') : Buffer.from(secret);
    if (bytes.length < TOKEN_KEY_MIN_BYTES) {
      throw new TokenKeyError(
        `${source} is too short: use at least ${TOKEN_KEY_MIN_BYTES} random bytes (make one with: openssl rand -base64 32).`,
        bytes.length === 0 ? 'missing' : 'too_short',
        { fields: [{ path: source, message: `at least ${TOKEN_KEY_MIN_BYTES} bytes` }] },
      );
    }
    const id = options.id ?? DEFAULT_TOKEN_KEY_ID;
    if (!TOKEN_KEY_ID_PATTERN.test(id)) {
      throw new TokenKeyError(
        `${source}: a key id is 1 to 64 letters, digits, '.', '_' or '-'.`,
        'malformed',
        {
          fields: [{ path: source, message: 'a key id' }],
        },
      );
    }
    this.#bytes = bytes;
    this.#secretKey = createSecretKey(bytes);
    this.id = id;
  }

  /** HMAC-SHA256 of `text`, in base64url (43 characters): what tokens of the `tst_` format were signed with. */
  sign(text: string): string {
    return createHmac('sha256', this.#bytes).update(text, 'utf8').digest('base64url');
  }

  /** The key as `jose` takes it: a KeyObject, which prints its size and never its bytes. */
  secretKey(): KeyObject {
    return this.#secretKey;
  }

  /** A key serialised by accident (a config dump, a log line) says what it is and shows nothing of it. */
  toJSON(): string {
    return `TokenKey(${this.id}, hidden)`;
  }

  /** As `toJSON`, for `console.log` and `util.inspect`. */
  [inspect.custom](): string {
    return this.toJSON();
  }
}

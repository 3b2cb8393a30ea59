import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { TokenKeyError } from '../errors/token-key-error.js';

/** The environment variable the server key is read from: never a command-line option, which `ps` and shell history show. */
export const TOKEN_KEY_VARIABLE = 'TOOLSTEPS_TOKEN_KEY';

/**
 * Fewest bytes a key may have: HMAC-SHA256's own output size, so a guessed
 * key is no easier than a guessed signature (RFC 2104 section 3).
 */
export const TOKEN_KEY_MIN_BYTES = 32;

/**
 * The server key that signs scoped tokens (HMAC-SHA256). Its bytes stay in
 * a private field: printing, logging or serializing the key shows its
 * name, never its value.
 */
export class TokenKey {
  readonly #bytes: Buffer;

  /**
   * @param secret the key as text (its UTF-8 bytes) or bytes; a random one: `openssl rand -base64 32`.
   * @throws TokenKeyError (`too_short`) for fewer than 32 bytes.
   */
  constructor(secret: string | Uint8Array, source = 'The token key') {
    const bytes = typeof secret === 'string' ? Buffer.from(secret.trim(), 'utf8') : Buffer.from(secret);
    if (bytes.length < TOKEN_KEY_MIN_BYTES) {
      throw new TokenKeyError(
        `${source} is too short: use at least ${TOKEN_KEY_MIN_BYTES} random bytes (make one with: openssl rand -base64 32).`,
        bytes.length === 0 ? 'missing' : 'too_short',
        { fields: [{ path: source, message: `at least ${TOKEN_KEY_MIN_BYTES} bytes` }] },
      );
    }
    this.#bytes = bytes;
  }

  /**
   * The key of `TOOLSTEPS_TOKEN_KEY` in `env`.
   * @throws TokenKeyError (`missing`, `too_short`), naming the variable.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): TokenKey {
    const value = env[TOKEN_KEY_VARIABLE];
    if (!value?.trim()) {
      throw new TokenKeyError(
        `Scoped tokens are signed with a server key, and ${TOKEN_KEY_VARIABLE} is not set: give every server the same random key of at least ${TOKEN_KEY_MIN_BYTES} bytes (make one with: openssl rand -base64 32).`,
        'missing',
        { fields: [{ path: TOKEN_KEY_VARIABLE, message: 'required' }] },
      );
    }
    return new TokenKey(value, TOKEN_KEY_VARIABLE);
  }

  /** Whether `env` names a key at all (a server then accepts scoped tokens). */
  static configured(env: NodeJS.ProcessEnv = process.env): boolean {
    return Boolean(env[TOKEN_KEY_VARIABLE]?.trim());
  }

  /** HMAC-SHA256 of `text`, in base64url (43 characters). */
  sign(text: string): string {
    return createHmac('sha256', this.#bytes).update(text, 'utf8').digest('base64url');
  }

  /** A key serialised by accident (a config dump, a log line) says what it is and shows nothing of it. */
  toJSON(): string {
    return 'TokenKey(hidden)';
  }

  /** As `toJSON`, for `console.log` and `util.inspect`. */
  [inspect.custom](): string {
    return 'TokenKey(hidden)';
  }
}

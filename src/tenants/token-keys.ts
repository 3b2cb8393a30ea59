import { inspect } from 'node:util';
import { TokenKeyError } from '../errors/token-key-error.js';
import { DEFAULT_TOKEN_KEY_ID, TOKEN_KEY_MIN_BYTES, TokenKey } from './token-key.js';

/** One key, id `default`: never a command-line option, which `ps` and shell history show. */
export const TOKEN_KEY_VARIABLE = 'TOOLSTEPS_TOKEN_KEY';

/**
 * Several keys, for rotation: `<kid>=<secret>` entries separated by spaces,
 * commas or new lines; the first signs, every one verifies.
 */
export const TOKEN_KEYS_VARIABLE = 'TOOLSTEPS_TOKEN_KEYS';

/** Most keys verified at once: rotation needs two or three; a long list only widens what a guess can hit. */
export const MAX_TOKEN_KEYS = 8;

function malformed(message: string): TokenKeyError {
  return new TokenKeyError(message, 'malformed', {
    fields: [{ path: TOKEN_KEYS_VARIABLE, message: '<kid>=<secret>, ...' }],
  });
}

/** The keys of a `TOOLSTEPS_TOKEN_KEYS` value, in its order; ids end at the first `=` (base64 pads with `=`). */
function parseKeyList(value: string): TokenKey[] {
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry, index) => {
      const at = entry.indexOf('=');
      if (at <= 0) throw malformed(`${TOKEN_KEYS_VARIABLE}: entry ${index + 1} is not <kid>=<secret>.`);
      return new TokenKey(entry.slice(at + 1), {
        id: entry.slice(0, at),
        source: `${TOKEN_KEYS_VARIABLE} (key ${entry.slice(0, at)})`,
      });
    });
}

/**
 * The keys a server checks scoped tokens with, each named by its id (the
 * token header's `kid`), and the one it signs new tokens with (the first).
 * Two at once let an operator rotate: add the new key second, then move it
 * first once every server has it, then drop the old one once the tokens it
 * signed have expired (or are no longer wanted).
 */
export class TokenKeys {
  readonly #byId: ReadonlyMap<string, TokenKey>;
  /** The key new tokens are signed with. */
  readonly signing: TokenKey;

  /** @throws TokenKeyError (`malformed`) for no key, more than 8, or one id twice. */
  constructor(keys: readonly TokenKey[]) {
    const [first] = keys;
    if (!first || keys.length > MAX_TOKEN_KEYS) {
      throw malformed(`${TOKEN_KEYS_VARIABLE}: give 1 to ${MAX_TOKEN_KEYS} keys.`);
    }
    const byId = new Map(keys.map((key) => [key.id, key]));
    if (byId.size !== keys.length) throw malformed(`${TOKEN_KEYS_VARIABLE}: each key id may appear once.`);
    this.#byId = byId;
    this.signing = first;
  }

  /** The key a token's `kid` names, or undefined for an id this server does not hold. */
  byId(id: unknown): TokenKey | undefined {
    return typeof id === 'string' ? this.#byId.get(id) : undefined;
  }

  /** Every key, the signing one first. */
  all(): TokenKey[] {
    return [...this.#byId.values()];
  }

  /**
   * The keys `env` configures: `TOOLSTEPS_TOKEN_KEYS` (several, with ids),
   * or `TOOLSTEPS_TOKEN_KEY` (one, id `default`). Both at once is refused:
   * which one signs would be a guess.
   * @throws TokenKeyError (`missing`, `too_short`, `malformed`), naming the variable, never the key.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): TokenKeys {
    const list = env[TOKEN_KEYS_VARIABLE]?.trim();
    const single = env[TOKEN_KEY_VARIABLE]?.trim();
    if (list && single) {
      throw malformed(`Set ${TOKEN_KEYS_VARIABLE} or ${TOKEN_KEY_VARIABLE}, not both.`);
    }
    if (list) return new TokenKeys(parseKeyList(list));
    if (!single) {
      throw new TokenKeyError(
        `Scoped tokens are signed with a server key, and ${TOKEN_KEY_VARIABLE} is not set: give every server the same random key of at least ${TOKEN_KEY_MIN_BYTES} bytes (make one with: openssl rand -base64 32).`,
        'missing',
        { fields: [{ path: TOKEN_KEY_VARIABLE, message: 'required' }] },
      );
    }
    return new TokenKeys([new TokenKey(single, { id: DEFAULT_TOKEN_KEY_ID, source: TOKEN_KEY_VARIABLE })]);
  }

  /** Whether `env` names a key at all (a server then accepts scoped tokens). */
  static configured(env: NodeJS.ProcessEnv = process.env): boolean {
    return Boolean(env[TOKEN_KEY_VARIABLE]?.trim() || env[TOKEN_KEYS_VARIABLE]?.trim());
  }

  /** Shows the ids only. */
  toJSON(): string {
    return `TokenKeys(${[...this.#byId.keys()].join(', ')})`;
  }

  /** What `console.log` and `util.inspect` show: the ids only, as `toJSON`. */
  [inspect.custom](): string {
    return this.toJSON();
  }
}

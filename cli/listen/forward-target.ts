import { inspect } from 'node:util';
import { InputError } from '../../src/errors/input-error.js';

/**
 * Where `--forward-to` posts events, held as a secret: such URLs often
 * carry a token (in the query, the path, or as user:password). The URL
 * lives only in this process's memory, read through `url()` by the one
 * fetch that needs it; everything else (messages, logs, job failures that
 * BullMQ keeps in Redis, the dead-letter queue) sees `redacted`, which
 * keeps only the scheme, host and port. Turned into a string, JSON or
 * inspected, the object gives that redacted form too.
 */
export class ForwardTarget {
  readonly #url: string;
  readonly #parts: string[];
  /** `https://host:port/…`: enough to tell targets apart, nothing that can carry a token. */
  readonly redacted: string;

  private constructor(url: URL) {
    this.#url = url.href;
    const values = [...url.searchParams.values()];
    // Not the whole href: its origin is what `redacted` shows on purpose, and a
    // shown origin before `…` would read as a cut prefix of the href (redacted
    // whole). The parts that may carry a token are each named instead.
    this.#parts = [
      url.search.slice(1),
      `${url.pathname}${url.search}`,
      url.password,
      url.username,
      ...values,
    ];
    const more = url.href.length > `${url.origin}/`.length ? '…' : '';
    this.redacted = `${url.origin}/${more}`;
  }

  /** Parses an http(s) URL; the error names the option, never the value, which may hold a token. */
  static parse(value: string, option = '--forward-to'): ForwardTarget {
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      throw new InputError(
        `${option} must be an http(s) URL (the value is not shown: it may hold a token).`,
        [{ path: option.replace(/^--/, ''), message: 'http(s) URL' }],
      );
    }
    return new ForwardTarget(parsed);
  }

  /** The URL itself, for the request and nothing else. */
  url(): string {
    return this.#url;
  }

  /** The URL and each part of it that may carry a token, for `redactSecrets` and `ToolstepsError.redacted`. */
  secrets(): string[] {
    return [...this.#parts];
  }

  toString(): string {
    return this.redacted;
  }

  toJSON(): string {
    return this.redacted;
  }

  [inspect.custom](): string {
    return `ForwardTarget(${this.redacted})`;
  }
}

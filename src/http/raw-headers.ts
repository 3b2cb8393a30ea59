// The headers of an answer the dispatcher or node:http wire gathered, read in place from the raw record.
type RawRecord = Record<string, string | string[] | undefined>;

/**
 * A `Headers` over undici's raw header record, read in place: building a
 * real `Headers` checked and sorted every header of every answer, a fifth of
 * the transport's CPU. undici hands the names lower-cased; a repeated header
 * reads as its values joined with ", ", as `Headers` gives it (set-cookie
 * apart, through `getSetCookie`), and iteration is in name order, as theirs is.
 */
export class RawHeaders implements Headers {
  #raw: RawRecord;
  /** Whether `#raw` is our own copy, which only a change (set, append, delete) needs. */
  #owned = false;

  /**
   * Reads `raw` in place, own names only (`Object.hasOwn`), so a header named
   * `constructor` or `__proto__` is just a header and an inherited name is
   * none. Copying it into an object without a prototype, as before, made a
   * dictionary-mode object per answer, slower to build and to read than the
   * record undici made; a change copies it first, so the caller's record stays as given.
   */
  constructor(raw: RawRecord) {
    this.#raw = raw;
  }

  #value(name: string): string | string[] | undefined {
    return Object.hasOwn(this.#raw, name) ? this.#raw[name] : undefined;
  }

  #writable(): RawRecord {
    if (!this.#owned) {
      this.#raw = Object.assign(Object.create(null) as RawRecord, this.#raw);
      this.#owned = true;
    }
    return this.#raw;
  }

  get(name: string): string | null {
    // The names are lower case, and so is nearly every name asked for: looked up as given first, lower-cased only on a miss.
    const value = this.#value(name) ?? this.#value(name.toLowerCase());
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.#value(name.toLowerCase()) !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#value('set-cookie');
    if (value === undefined) return [];
    return typeof value === 'string' ? [value] : [...value];
  }

  set(name: string, value: string): void {
    this.#writable()[name.toLowerCase()] = String(value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.#value(key);
    const raw = this.#writable();
    if (current === undefined) raw[key] = String(value);
    else raw[key] = [...(typeof current === 'string' ? [current] : current), String(value)];
  }

  delete(name: string): void {
    delete this.#writable()[name.toLowerCase()];
  }

  /** Every value, each followed by a newline, in no particular order: for a search, without `entries`' sort. */
  joinedValues(): string {
    let joined = '';
    for (const name in this.#raw) {
      const value = this.#value(name);
      if (value === undefined) continue;
      joined += `${typeof value === 'string' ? value : value.join(', ')}\n`;
    }
    return joined;
  }

  *entries(): IterableIterator<[string, string]> {
    // Own names only: `Object.keys` lists no inherited one.
    for (const name of Object.keys(this.#raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }
}

type RawRecord = Record<string, string | string[] | undefined>;

/**
 * A `Headers` over undici's raw header record, read in place: building a
 * real `Headers` checked and sorted every header of every answer, a fifth of
 * the transport's CPU. undici hands the names lower-cased; a repeated header
 * reads as its values joined with ", ", as `Headers` gives it (set-cookie
 * apart, through `getSetCookie`), and iteration is in name order, as theirs is.
 */
export class RawHeaders implements Headers {
  readonly #raw: RawRecord;

  constructor(raw: RawRecord) {
    // A copy without a prototype: a header named `constructor` or `__proto__` is just a header.
    this.#raw = Object.assign(Object.create(null) as RawRecord, raw);
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#raw['set-cookie'];
    if (value === undefined) return [];
    return typeof value === 'string' ? [value] : [...value];
  }

  set(name: string, value: string): void {
    this.#raw[name.toLowerCase()] = String(value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.#raw[key];
    if (current === undefined) this.#raw[key] = String(value);
    else this.#raw[key] = [...(typeof current === 'string' ? [current] : current), String(value)];
  }

  delete(name: string): void {
    delete this.#raw[name.toLowerCase()];
  }

  *entries(): IterableIterator<[string, string]> {
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

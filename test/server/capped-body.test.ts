import { describe, expect, it } from 'vitest';
import {
  BodyTimedOut,
  BodyTooLarge,
  consumeCappedBody,
  declaredLength,
  readCappedBody,
} from '../../src/server/capped-body.js';

/** `count` chunks of `size` bytes, counting in `seen.read` how many were pulled. */
function chunks(count: number, size: number, seen: { read: number }): AsyncIterable<Uint8Array> {
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    if (seen.read === count) return { done: true, value: undefined };
    seen.read += 1;
    return { done: false, value: new Uint8Array(size) };
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

describe('the one capped body reader', () => {
  it('returns a body within the limit whole, and one given whole as it is', async () => {
    expect((await readCappedBody(chunks(4, 1024, { read: 0 }), { limit: 4096 })).byteLength).toBe(4096);
    const whole = new Uint8Array(10);
    expect(await readCappedBody(whole, { limit: 10 })).toBe(whole);
  });

  it('refuses a declared length over the limit without reading a byte', async () => {
    const seen = { read: 0 };
    const refusal = await readCappedBody(chunks(10, 1024, seen), { limit: 1024, declared: 2048 }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BodyTooLarge);
    expect(refusal).toMatchObject({ status: 413, limit: 1024 });
    expect(seen.read).toBe(0);
  });

  it('stops at the first chunk past the limit, declared or not', async () => {
    const seen = { read: 0 };
    await expect(readCappedBody(chunks(300, 1024, seen), { limit: 256 * 1024 })).rejects.toBeInstanceOf(
      BodyTooLarge,
    );
    expect(seen.read).toBe(257);
    await expect(readCappedBody(new Uint8Array(11), { limit: 10 })).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it('hands chunks to the taker without holding them, and counts them', async () => {
    let taken = 0;
    const total = await consumeCappedBody(chunks(3, 100, { read: 0 }), { limit: 300 }, (chunk) => {
      taken += chunk.byteLength;
    });
    expect([total, taken]).toEqual([300, 300]);
  });

  it('gives up with BodyTimedOut when its signal aborts while a chunk is awaited', async () => {
    const stalled: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<Uint8Array>>(() => {}) }),
    };
    const deadline = new AbortController();
    const read = readCappedBody(stalled, { limit: 10, signal: deadline.signal });
    deadline.abort();
    await expect(read).rejects.toBeInstanceOf(BodyTimedOut);
  });

  it('reads a declared length only when it is a plain number', () => {
    expect(declaredLength({ 'content-length': '42' })).toBe(42);
    expect(declaredLength(new Headers({ 'content-length': '42' }))).toBe(42);
    expect(declaredLength({ 'content-length': '4e2' })).toBeUndefined();
    expect(declaredLength({})).toBeUndefined();
  });
});

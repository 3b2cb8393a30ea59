import { describe, expect, it } from 'vitest';
import { IntakeRefusal } from '../../../src/triggers/intake/intake-refusal.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  readBodyWithinLimit,
} from '../../../src/triggers/intake/read-body-within-limit.js';

async function* chunks(count: number, size: number, seen: { read: number }) {
  for (let index = 0; index < count; index += 1) {
    seen.read += 1;
    yield new Uint8Array(size);
  }
}

describe('stage 1: size limit', () => {
  it('defaults to 256 KB', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(256 * 1024);
  });

  it('returns a body within the limit whole', async () => {
    const seen = { read: 0 };
    const body = await readBodyWithinLimit(chunks(4, 1024, seen), undefined, 4096);
    expect(body.byteLength).toBe(4096);
  });

  it('refuses a declared length over the limit with 413 without reading a byte', async () => {
    const seen = { read: 0 };
    const refusal = await readBodyWithinLimit(
      chunks(10, 1024, seen),
      300 * 1024,
      DEFAULT_MAX_BODY_BYTES,
    ).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(IntakeRefusal);
    expect(refusal).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(seen.read).toBe(0);
  });

  it('stops reading an undeclared body at the first chunk past the limit', async () => {
    const seen = { read: 0 };
    await expect(readBodyWithinLimit(chunks(300, 1024, seen), undefined, 256 * 1024)).rejects.toMatchObject({
      status: 413,
    });
    expect(seen.read).toBe(257);
  });

  it('checks a body given whole', async () => {
    await expect(readBodyWithinLimit(new Uint8Array(11), undefined, 10)).rejects.toMatchObject({
      status: 413,
    });
    expect((await readBodyWithinLimit(new Uint8Array(10), undefined, 10)).byteLength).toBe(10);
  });
});

import { IntakeRefusal } from './intake-refusal.js';

/** The largest body the intake reads by default: provider events are a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/**
 * Stage 1, size limit. Reads the raw body, refusing with 413 as soon as the
 * declared length or the bytes read pass `limit`: an oversized body is never
 * held whole, parsed or verified.
 */
export async function readBodyWithinLimit(
  body: AsyncIterable<Uint8Array> | Uint8Array,
  declaredLength: number | undefined,
  limit: number,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new IntakeRefusal(413, 'payload_too_large', `The body is larger than ${limit} bytes; it was not read.`);
  if (declaredLength !== undefined && declaredLength > limit) throw tooLarge();
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw tooLarge();
    return body;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

import { IntakeRefusal } from './intake-refusal.js';

/** The largest body the intake reads by default: provider events are a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export type DeliveryBody = AsyncIterable<Uint8Array> | Uint8Array;

function tooLarge(limit: number): IntakeRefusal {
  return new IntakeRefusal(
    413,
    'payload_too_large',
    `The body is larger than ${limit} bytes; it was not read.`,
  );
}

/** A declared length over the limit is refused before anything else is done with the delivery. */
export function checkDeclaredLength(declaredLength: number | undefined, limit: number): void {
  if (declaredLength !== undefined && declaredLength > limit) throw tooLarge(limit);
}

/**
 * Stage 2, size limit. Hands each chunk of the raw body to `take` as it
 * arrives, refusing with 413 as soon as the declared length or the bytes
 * read pass `limit`: an oversized body is never held whole, parsed or
 * verified. What `take` keeps is its own choice, so a body nobody can
 * verify passes through without being held at all.
 */
export async function consumeBodyWithinLimit(
  body: DeliveryBody,
  declaredLength: number | undefined,
  limit: number,
  take: (chunk: Uint8Array) => void,
): Promise<number> {
  checkDeclaredLength(declaredLength, limit);
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw tooLarge(limit);
    take(body);
    return body.byteLength;
  }
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit);
    take(chunk);
  }
  return total;
}

/** The raw body, held whole (within `limit`) for a signature check that needs every byte. */
export async function readBodyWithinLimit(
  body: DeliveryBody,
  declaredLength: number | undefined,
  limit: number,
): Promise<Uint8Array> {
  if (body instanceof Uint8Array) {
    await consumeBodyWithinLimit(body, declaredLength, limit, () => undefined);
    return body;
  }
  const chunks: Uint8Array[] = [];
  const total = await consumeBodyWithinLimit(body, declaredLength, limit, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, total);
}

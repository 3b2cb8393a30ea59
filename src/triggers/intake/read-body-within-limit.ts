import { INTAKE_MAX_BODY_BYTES } from '../../server/body-limits.js';
import {
  type BodySource,
  BodyTooLarge,
  checkDeclaredLength as checkDeclared,
  consumeCappedBody,
  readCappedBody,
} from '../../server/capped-body.js';
import { IntakeRefusal } from './intake-refusal.js';

/**
 * The largest body the intake reads by default.
 * @deprecated The same limit is `INTAKE_MAX_BODY_BYTES`, whose name says which server's it is.
 */
export const DEFAULT_MAX_BODY_BYTES = INTAKE_MAX_BODY_BYTES;

export type DeliveryBody = BodySource;

/** The capped reader's refusal in the intake's words (413 `payload_too_large`), which providers' dashboards show. */
function inIntakeWords(error: unknown): unknown {
  return error instanceof BodyTooLarge ? new IntakeRefusal(413, 'payload_too_large', error.message) : error;
}

/** A declared length over the limit is refused before anything else is done with the delivery. */
export function checkDeclaredLength(declaredLength: number | undefined, limit: number): void {
  try {
    checkDeclared(declaredLength, limit);
  } catch (error) {
    throw inIntakeWords(error);
  }
}

/**
 * Stage 2, size limit, with the servers' one capped reader: each chunk of
 * the raw body goes to `take` as it arrives, refused with 413 as soon as the
 * declared length or the bytes read pass `limit`, so an oversized body is
 * never held whole, parsed or verified, and a body nobody can verify passes
 * through without being held at all.
 */
export function consumeBodyWithinLimit(
  body: DeliveryBody,
  declaredLength: number | undefined,
  limit: number,
  take: (chunk: Uint8Array) => void,
): Promise<number> {
  return consumeCappedBody(body, { limit, declared: declaredLength }, take).catch((error: unknown) => {
    throw inIntakeWords(error);
  });
}

/** The raw body, held whole (within `limit`) for a signature check that needs every byte. */
export function readBodyWithinLimit(
  body: DeliveryBody,
  declaredLength: number | undefined,
  limit: number,
): Promise<Uint8Array> {
  return readCappedBody(body, { limit, declared: declaredLength }).catch((error: unknown) => {
    throw inIntakeWords(error);
  });
}

import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-like id (26 characters of Crockford base32), the shape of the ticketing provider's webhook ids. */
export function ulidLike(now: number): string {
  let time = '';
  let rest = now;
  for (let index = 0; index < 10; index += 1) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const random = [...randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
  return time + random;
}

/** A signing secret: 32 random bytes, base64url, as both providers hand out opaque strings. */
export function newSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750), or
 * undefined when there is none or it is not one: visible ASCII only, at
 * most 4 KB, so a header of any other shape never reaches a verifier.
 * The scheme's name is case-insensitive, as HTTP's auth schemes are.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(authorization ?? '')?.[1];
}

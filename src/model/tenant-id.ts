import { InputError } from '../errors/input-error.js';

/**
 * One organization of the embedding platform. Every stored record belongs to
 * exactly one tenant; the id is part of every key, so the brand keeps a raw
 * string (a request parameter, a file name) from reaching a store unchecked.
 */
export type TenantId = string & { readonly __tenant: unique symbol };

/** The tenant of single-organization use and of every record stored before tenants existed. */
export const DEFAULT_TENANT = 'default' as TenantId;

/**
 * Lower case only, so `Acme` and `acme` cannot name two tenants on a
 * case-insensitive disk; no dot or slash, so an id is safe as a file name,
 * a Redis key segment and a Postgres value without escaping.
 */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * Checks a tenant id from outside (an option, an environment variable, a
 * token) before any store is touched.
 * @throws InputError (`input_invalid`, field `tenant`) for anything outside the pattern.
 */
export function parseTenantId(raw: unknown): TenantId {
  if (typeof raw === 'string' && TENANT_ID_PATTERN.test(raw)) return raw as TenantId;
  const shown = typeof raw === 'string' ? JSON.stringify(raw.slice(0, 70)) : typeof raw;
  throw new InputError(
    `Invalid tenant id ${shown}: use 1 to 63 characters of a-z, 0-9, "_" and "-", starting with a letter or digit.`,
    [{ path: 'tenant', message: 'must match ^[a-z0-9][a-z0-9_-]{0,62}$' }],
  );
}

/** True for a string that `parseTenantId` accepts. */
export function isTenantId(raw: unknown): raw is TenantId {
  return typeof raw === 'string' && TENANT_ID_PATTERN.test(raw);
}

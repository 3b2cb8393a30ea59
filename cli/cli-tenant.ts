import { InputError } from '../src/errors/input-error.js';
import { DEFAULT_TENANT, parseTenantId, type TenantId } from '../src/model/tenant-id.js';

let selected: { tenant: TenantId; chosen: boolean } | undefined;

/**
 * Settles the tenant of this run from `--tenant`, else `TOOLSTEPS_TENANT`,
 * else the default tenant, before any command touches a store.
 * @throws InputError naming where the malformed id came from.
 */
export function selectTenantFor(option: unknown, env: NodeJS.ProcessEnv = process.env): TenantId {
  const fromOption = option !== undefined;
  const raw = fromOption ? option : env.TOOLSTEPS_TENANT;
  try {
    const tenant = raw === undefined ? DEFAULT_TENANT : parseTenantId(raw);
    selected = { tenant, chosen: raw !== undefined };
    return tenant;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const source = fromOption ? '--tenant' : 'TOOLSTEPS_TENANT';
    throw new InputError(`${source}: ${error.message}`, [
      { path: source.replace(/^--/, ''), message: 'a tenant id' },
    ]);
  }
}

/** The tenant of this run (`selectTenantFor`; unsettled, from the environment). */
export function cliTenant(): TenantId {
  return selected?.tenant ?? selectTenantFor(undefined);
}

/** Whether a tenant was asked for (`--tenant` or `TOOLSTEPS_TENANT`), rather than left to the default. */
export function cliTenantChosen(): boolean {
  if (!selected) selectTenantFor(undefined);
  return Boolean(selected?.chosen);
}

import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import type { TenantLimits } from '../../src/model/tenant-limits.js';
import { cliStores } from '../cli-stores.js';
import { cliTenant, cliTenantChosen } from '../cli-tenant.js';
import { cliAuditedWrite } from '../cli-write-audit.js';
import { integerOption } from '../option-values.js';
import { printJson } from '../output.js';

interface LimitOptions {
  callsPerMinute?: string;
  creditsPerDay?: string;
  clear?: boolean;
}

const MAX_LIMIT = 1_000_000_000;

/** The tenant a limits command names, or the run's; a different --tenant beside it is refused as ambiguous. */
function namedTenant(id: string | undefined): TenantId {
  if (id === undefined) return cliTenant();
  const tenant = parseTenantId(id);
  if (cliTenantChosen() && cliTenant() !== tenant) {
    throw new InputError(`tenants limits was given ${tenant} and --tenant ${cliTenant()}; name one tenant.`, [
      { path: 'tenant', message: 'two different tenants' },
    ]);
  }
  return tenant;
}

function printLimits(tenant: TenantId, limits: TenantLimits, json: boolean): void {
  if (json) {
    printJson({ tenant, limits });
    return;
  }
  const per = (value: number | undefined, unit: string) =>
    value === undefined ? 'no limit' : `${value} ${unit}`;
  process.stdout.write(
    `${tenant}: calls per minute: ${per(limits.callsPerMinute, 'calls')}; credits per day (UTC): ${per(limits.creditsPerDay, 'credits')}\n`,
  );
}

/** `tenants limits set <tenant>`: stores the given limits over the current ones (`--clear` first removes them all). */
export async function setTenantLimits(id: string, options: LimitOptions, command: Command): Promise<void> {
  const tenant = namedTenant(id);
  const given: TenantLimits = {
    ...(options.callsPerMinute === undefined
      ? {}
      : {
          callsPerMinute: integerOption(options.callsPerMinute, '--calls-per-minute', {
            min: 1,
            max: MAX_LIMIT,
          }),
        }),
    ...(options.creditsPerDay === undefined
      ? {}
      : {
          creditsPerDay: integerOption(options.creditsPerDay, '--credits-per-day', {
            min: 1,
            max: MAX_LIMIT,
          }),
        }),
  };
  if (!options.clear && Object.keys(given).length === 0) {
    throw new InputError('Give --calls-per-minute, --credits-per-day, or --clear to remove every limit.', [
      { path: 'calls-per-minute', message: 'required' },
    ]);
  }
  const view = (await cliStores()).tenants.forTenant(tenant);
  const current = options.clear ? {} : await view.limits.get();
  const entry = {
    action: Object.keys(given).length ? 'limits.set' : 'limits.clear',
    target: tenant,
  } as const;
  const stored = await cliAuditedWrite(view.audit, entry, () => view.limits.set({ ...current, ...given }));
  printLimits(tenant, stored, Boolean(command.optsWithGlobals().json));
}

/** `tenants limits show [tenant]`: the stored limits of the named tenant, or of the run's. */
export async function showTenantLimits(id: string | undefined, _options: unknown, command: Command) {
  const tenant = namedTenant(id);
  const limits = await (await cliStores()).tenants.forTenant(tenant).limits.get();
  printLimits(tenant, limits, Boolean(command.optsWithGlobals().json));
}

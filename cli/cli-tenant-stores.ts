import { InputError } from '../src/errors/input-error.js';
import { DEFAULT_TENANT, type TenantId } from '../src/tenants/tenant-id.js';
import type { TenantStores } from '../src/tenants/tenant-stores.js';
import type { CliStores } from './cli-stores.js';

/**
 * The CLI's own stores as the builder server's tenant backend: the default
 * tenant is the store every other command uses (a connection added with
 * `toolsteps connect` is in the page's dropdown). Other tenants need the
 * tenant-scoped stores (issue 23); until the CLI opens those, they are refused.
 */
export function cliTenantStores(stores: CliStores): TenantStores {
  const only = (tenant: TenantId) => {
    if (tenant !== DEFAULT_TENANT) {
      throw new InputError(`This server keeps only the "${DEFAULT_TENANT}" tenant's records.`, [
        { path: 'tenant', message: `only "${DEFAULT_TENANT}"` },
      ]);
    }
  };
  return {
    forTenant(tenant) {
      only(tenant);
      return { tenant, connections: stores.connections, subscriptions: stores.subscriptions };
    },
    async tenants() {
      const [connections, subscriptions] = await Promise.all([
        stores.connections.list(),
        stores.subscriptions.list(),
      ]);
      const count = { connections: connections.length, subscriptions: subscriptions.length };
      return count.connections + count.subscriptions ? [{ tenant: DEFAULT_TENANT, ...count }] : [];
    },
    async eraseTenant(tenant) {
      only(tenant);
      throw new InputError('Erasing a tenant needs the tenant-scoped stores.', [
        { path: 'tenant', message: 'not supported here' },
      ]);
    },
  };
}

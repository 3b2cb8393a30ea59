import { isToolstepsError } from '../../src/errors/toolsteps-error.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import type { TenantStores } from '../../src/store/tenant-stores.js';
import type { DemoContext } from './demo-context.js';

const ACME = parseTenantId('acme');
const GLOBEX = parseTenantId('globex');

/** A ticketing connection to the tenant's own help desk account (its subdomain) in the sandbox. */
async function connectDesk(demo: DemoContext, stores: TenantStores, tenant: TenantId, id: string) {
  const now = Date.now();
  await stores.forTenant(tenant).connections.put({
    id,
    integration: 'ticketing',
    label: `${tenant} help desk`,
    kind: 'oauth2',
    fields: { subdomain: tenant, baseUrl: demo.sandbox.baseUrl('ticketing', tenant) },
    secrets: { accessToken: demo.sandbox.ticketing.issueTokens(tenant).access_token },
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Two tenants side by side on one deployment: `acme` and `globex` each
 * connect their own help desk under the same id, `support`; each runtime
 * (`new Runtime({ tenant, tenantStores })`) lists and uses only its own,
 * and asking for the other's connection is refused as an unknown id.
 */
export async function tenantsStory(demo: DemoContext): Promise<void> {
  demo.heading('Tenants: acme and globex, each with its own "support" connection');
  const tenantStores = new MemoryTenantStores();
  await connectDesk(demo, tenantStores, ACME, 'support');
  await connectDesk(demo, tenantStores, ACME, 'acme-billing');
  await connectDesk(demo, tenantStores, GLOBEX, 'support');
  for (const tenant of [ACME, GLOBEX]) {
    const runtime = new Runtime({ tenant, tenantStores });
    const listed = await tenantStores.forTenant(tenant).connections.list();
    const created = await demo.registry.invokeUnchecked(runtime, 'ticketing.create_ticket', {
      connection: 'support',
      input: { subject: `${tenant}: printer on fire`, description: `Reported to ${tenant}'s own help desk.` },
    });
    const { ticket } = created.output as { ticket: { id: number; url?: string } };
    demo.say(
      `${tenant} sees [${listed.map((connection) => connection.id).join(', ')}]; its "support" made ticket ${ticket.id} in the ${tenant} desk`,
    );
  }
  const globex = new Runtime({ tenant: GLOBEX, tenantStores });
  const refused = await demo.registry
    .invokeUnchecked(globex, 'ticketing.list_tickets', { connection: 'acme-billing', input: { limit: 1 } })
    .catch((error: unknown) => error);
  const code = isToolstepsError(refused) ? refused.code : 'unexpected success';
  demo.say(
    `globex asking for acme's "acme-billing": refused (${code}), as an id that exists nowhere; nothing sent`,
  );
}

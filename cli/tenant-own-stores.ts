/** What every backend's view of one tenant holds for that tenant alone. */
interface TenantView<Connections, Subscriptions, Audit, Limits> {
  connections: Connections;
  subscriptions: Subscriptions;
  audit: Audit;
  limits: Limits;
}

/**
 * The run's tenant's own stores, from its view of whichever backend holds
 * them (files, Redis, Postgres): its connections, subscriptions, audit trail
 * and limits, the part of `CliStores` every backend fills alike.
 */
export function tenantOwnStores<C, S, A, L>(view: TenantView<C, S, A, L>): TenantView<C, S, A, L> {
  return {
    connections: view.connections,
    subscriptions: view.subscriptions,
    audit: view.audit,
    limits: view.limits,
  };
}

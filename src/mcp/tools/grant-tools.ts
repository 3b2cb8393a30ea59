import type { AgentToolsOptions } from '../../agents/agent-tools.js';
import { LiveAgentTools } from '../../agents/live-agent-tools.js';
import type { ToolFilter } from '../../agents/tool-filter.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { Runtime } from '../../runtime/runtime.js';
import { grantKey, type McpGrant, type McpTokenAccess } from './mcp-grant.js';

/**
 * The server's own filters narrowed by a grant: integrations both allow,
 * read-only when either says so; the server's pinned steps (and their majors) for every grant. Pinned connections name the server's own
 * tenant's records, so they apply to that tenant only.
 */
export function grantFilter(base: ToolFilter, grant: McpGrant, ownTenant: TenantId): ToolFilter {
  const integrations =
    grant.integrations && base.integrations
      ? grant.integrations.filter((id) => base.integrations?.includes(id))
      : (grant.integrations ?? base.integrations);
  return {
    integrations,
    readOnly: Boolean(base.readOnly || grant.readOnly),
    connections: grant.tenant === ownTenant ? base.connections : undefined,
    // Pinned majors are the server's configuration, the same for every tenant it serves.
    steps: base.steps,
  };
}

/**
 * The live tools of each grant the server has seen, each over its tenant's
 * runtime (one per tenant, so its rate gates are shared by its sessions),
 * each watching its tenant's store. Grants come only from verified tokens,
 * so their number is that of the tokens in use.
 */
export class GrantTools {
  private readonly tools = new Map<string, Promise<LiveAgentTools>>();
  private readonly runtimes = new Map<TenantId, Runtime>();
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly base: AgentToolsOptions,
    private readonly watchIntervalMs: number,
    private readonly access: McpTokenAccess | undefined,
  ) {
    this.runtimes.set(base.runtime.tenant, base.runtime);
  }

  /** The tools of the server's own tenant, unrestricted by any token. */
  own(): Promise<LiveAgentTools> {
    return this.toolsFor({ tenant: this.base.runtime.tenant, readOnly: false });
  }

  toolsFor(grant: McpGrant): Promise<LiveAgentTools> {
    const key = grantKey(grant);
    let found = this.tools.get(key);
    if (!found) {
      found = this.load(grant);
      // A failed load (a store that did not answer) is tried again by the next client.
      found.catch(() => this.tools.delete(key));
      this.tools.set(key, found);
    }
    return found;
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private async load(grant: McpGrant): Promise<LiveAgentTools> {
    const live = await LiveAgentTools.load({
      ...this.base,
      ...grantFilter(this.base, grant, this.base.runtime.tenant),
      runtime: this.runtimeOf(grant.tenant),
    });
    if (this.watchIntervalMs !== 0) this.stops.push(live.watch(this.watchIntervalMs));
    return live;
  }

  private runtimeOf(tenant: TenantId): Runtime {
    let runtime = this.runtimes.get(tenant);
    if (!runtime) {
      if (!this.access) throw new Error(`No runtime for tenant ${tenant}: this server has no scoped tokens.`);
      runtime = this.access.runtimeFor(tenant);
      this.runtimes.set(tenant, runtime);
    }
    return runtime;
  }
}

import { resolveBaseUrl } from '../connection/connection-fields.js';
import { PreparedTransport } from '../http/prepared-transport.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Gate } from '../model/rate-limit.js';
import { telemetryRegistered } from '../telemetry/index.js';
import type { RuntimeSettings } from './runtime-options.js';

/** Most connections a runtime keeps prepared; past it, the one used longest ago is dropped. */
export const PREPARED_CONNECTIONS_LIMIT = 1000;

/**
 * What invocations on one connection share, worked out once: its base URL,
 * the integration's default query, the connection's rate gate, and the
 * transport's stages (one set for steps that declare themselves idempotent,
 * one for the rest). Nothing here is a secret: each request reads the
 * connection as it is at that moment for its credentials.
 */
export class PreparedConnection {
  readonly baseUrl: string;
  readonly defaultQuery: Record<string, string | undefined>;
  readonly gate: Gate;
  /** By the step's idempotence: `[not idempotent, idempotent]`, each composed when first needed. */
  private readonly transports: [PreparedTransport | undefined, PreparedTransport | undefined] = [
    undefined,
    undefined,
  ];

  constructor(
    readonly integration: Integration,
    /** The record this was prepared from: its id, its version (`updatedAt`) and a copy of its fields. */
    readonly version: { id: string; updatedAt: number; fields: Readonly<Record<string, string>> },
    private readonly settings: RuntimeSettings,
    gate: Gate,
  ) {
    this.baseUrl = resolveBaseUrl(integration, version);
    this.defaultQuery = integration.defaultQuery?.(version.fields as never) ?? {};
    this.gate = gate;
  }

  /** The transport's stages for a step with this idempotence declaration. */
  transport(stepIdempotent: boolean): PreparedTransport {
    const index = stepIdempotent ? 1 : 0;
    const kept = this.transports[index];
    // Spans are composed into the stages or not: an SDK registered since then needs them composed again.
    if (kept && kept.traced === telemetryRegistered()) return kept;
    const { settings } = this;
    const made = new PreparedTransport({
      integration: this.integration,
      connectionId: this.version.id,
      baseUrl: this.baseUrl,
      defaultQuery: this.defaultQuery,
      wire: settings.transport.wire,
      clock: settings.clock,
      gate: this.gate,
      retry: settings.retry,
      logger: settings.logger,
      stepIdempotent,
      requestTimeoutMs: settings.requestTimeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
    });
    this.transports[index] = made;
    return made;
  }

  /** Whether this was prepared from `connection` as it is now, for `integration`. */
  matches(integration: Integration, connection: Connection): boolean {
    return (
      this.integration === integration &&
      this.version.updatedAt === connection.updatedAt &&
      sameFields(this.version.fields, connection.fields)
    );
  }
}

function sameFields(kept: Readonly<Record<string, string>>, current: Record<string, string>): boolean {
  let count = 0;
  for (const name in current) {
    if (!Object.hasOwn(current, name)) continue;
    if (kept[name] !== current[name]) return false;
    count += 1;
  }
  return count === Object.keys(kept).length;
}

/**
 * A runtime's prepared connections, by connection id, bounded
 * (`PREPARED_CONNECTIONS_LIMIT`, the one used longest ago dropped first).
 * One is prepared again whenever the record it came from changed: another
 * `updatedAt` (a token refresh, `connections add` writing it again, from
 * this process or another) or other fields (an embedder's store that
 * rewrote a record without touching `updatedAt`), or another integration.
 * Kept per runtime, not per step: what depends on the step (its schemas,
 * its compiled mapping) is kept on the step already, and every surface
 * (library, CLI, MCP, builder, triggers) goes through `Runtime.invoke` and
 * gains without preparing anything itself.
 */
export class PreparedConnections {
  private readonly entries = new Map<string, { prepared: PreparedConnection; usedAt: number }>();
  private uses = 0;

  constructor(
    private readonly settings: RuntimeSettings,
    private readonly gateFor: (connectionId: string) => Gate,
    private readonly limit = PREPARED_CONNECTIONS_LIMIT,
  ) {}

  /** How many connections are kept prepared. */
  get size(): number {
    return this.entries.size;
  }

  /** What invocations share for `connection` as the store holds it now. */
  for(integration: Integration, connection: Connection): PreparedConnection {
    this.uses += 1;
    const kept = this.entries.get(connection.id);
    if (kept?.prepared.matches(integration, connection)) {
      kept.usedAt = this.uses;
      return kept.prepared;
    }
    const version = {
      id: connection.id,
      updatedAt: connection.updatedAt,
      fields: Object.freeze({ ...connection.fields }),
    };
    const prepared = new PreparedConnection(integration, version, this.settings, this.gateFor(connection.id));
    if (!kept && this.entries.size >= this.limit) this.dropLeastRecentlyUsed();
    this.entries.set(connection.id, { prepared, usedAt: this.uses });
    return prepared;
  }

  private dropLeastRecentlyUsed(): void {
    let oldest: string | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.entries) {
      if (entry.usedAt < oldestUse) {
        oldest = id;
        oldestUse = entry.usedAt;
      }
    }
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}

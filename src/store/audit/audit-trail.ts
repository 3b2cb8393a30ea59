import * as z from 'zod';

/**
 * The record of one write or destructive step run: who ran which step, on
 * which connection, when, and how it ended. Never the input, the output or
 * a secret: a record names what was done, not with what.
 */
export const StepRunRecord = z
  .object({
    at: z.iso.datetime().describe('When the run ended, ISO 8601 UTC.'),
    step: z.string().describe('The step id, e.g. ticketing.create_ticket.'),
    access: z.enum(['write', 'destructive']).describe("The step's access."),
    connection: z.string().describe('The connection id the run used.'),
    caller: z
      .string()
      .describe('Who ran it: `cli`, `mcp`, an MCP token id, or the label a library embedder gave.'),
    test: z.boolean().optional().describe("True for a builder page's test run of a draft."),
    outcome: z.enum(['ok', 'error']).describe('Whether the run succeeded.'),
    error_code: z.string().optional().describe("The error's code when it failed (`rate_limited`, ...)."),
  })
  // Strict: a record with anything more (an input, a message) is refused, not stored.
  .strict();
export type StepRunRecord = z.infer<typeof StepRunRecord>;

/** Every write to the stores that a person or a token asks for, outside a step run. */
export const WRITE_ACTIONS = [
  'connection.store',
  'connection.remove',
  'subscription.create',
  'subscription.activate',
  'subscription.deactivate',
  'subscription.secret',
  'subscription.remove',
  'token.mint',
  'token.revoke',
  'limits.set',
  'limits.clear',
  'tenant.erase',
] as const;
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/**
 * The record of one write to the tenant's stores made through the builder
 * API, the CLI or the library: a connection stored or removed, a
 * subscription made, switched or removed, a token minted or revoked, limits
 * set, the tenant erased. The target is an id (never a key, secret or
 * token value).
 */
export const WriteRecord = z
  .object({
    at: z.iso.datetime().describe('When the write ended, ISO 8601 UTC.'),
    action: z.enum(WRITE_ACTIONS).describe('What was written.'),
    target: z.string().describe('The id written: a connection, subscription, token id or tenant.'),
    integration: z
      .string()
      .optional()
      .describe("The connection's or trigger's integration, when there is one."),
    caller: z.string().describe("Who asked: a builder token or session id, `cli`, or an embedder's label."),
    outcome: z.enum(['ok', 'error']).describe('Whether the write succeeded.'),
    error_code: z.string().optional().describe("The error's code when it failed."),
  })
  .strict();
export type WriteRecord = z.infer<typeof WriteRecord>;

/** One audit record: a step run, or a write to the stores. */
export const AuditRecord = z.union([StepRunRecord, WriteRecord]);
export type AuditRecord = z.infer<typeof AuditRecord>;

/** Which records `read` answers: a time window and a cap, so reading a long trail stays bounded. */
export interface AuditQuery {
  /** Only records at or after this time (epoch ms). */
  since?: number;
  /** At most this many, the newest kept. Default 1000. */
  limit?: number;
}

export const DEFAULT_AUDIT_READ_LIMIT = 1000;

/** What checking a sealed trail found wrong: a record that does not verify, records missing, or a head that does not match. */
export const AuditProblem = z.object({
  kind: z.enum(['tampered', 'missing', 'head']),
  /** The chain position it concerns, when one is known. */
  n: z.int().optional(),
  message: z.string(),
});
export type AuditProblem = z.infer<typeof AuditProblem>;

/** The records that verified, oldest first, and what was found wrong on the way. */
export interface AuditReading {
  records: AuditRecord[];
  problems: AuditProblem[];
}

/**
 * One tenant's audit trail: appended to, never changed. Each backend keeps
 * it beside the tenant's other records (a file, a capped Redis stream, a
 * table), so erasing the tenant erases its trail.
 */
export interface AuditTrail {
  /** Appends one record; rejects when the backend could not keep it. */
  append(record: AuditRecord): Promise<void>;
  /** Records oldest first: in a sealed trail, only those that verify. */
  read(query?: AuditQuery): Promise<AuditRecord[]>;
  /**
   * The records and, for a trail a store writer without the keys could
   * change (Redis, Postgres), what was found altered, forged or missing.
   */
  verify?(query?: AuditQuery): Promise<AuditReading>;
}

/** A trail's records with what its check found; a trail with nothing to check (memory, files) finds nothing. */
export async function verifyTrail(trail: AuditTrail, query?: AuditQuery): Promise<AuditReading> {
  return trail.verify ? trail.verify(query) : { records: await trail.read(query), problems: [] };
}

/** The records of `all` that a query asks for, oldest first: for backends that read everything. */
export function selectRecords(all: readonly AuditRecord[], query: AuditQuery = {}): AuditRecord[] {
  const since = query.since;
  const matching = since === undefined ? [...all] : all.filter((record) => Date.parse(record.at) >= since);
  return matching.slice(-(query.limit ?? DEFAULT_AUDIT_READ_LIMIT));
}

import * as z from 'zod';

/**
 * One audit record: who ran which write or destructive step, on which
 * connection, when, and how it ended. Never the input, the output or a
 * secret: a record names what was done, not with what.
 */
export const AuditRecord = z
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
export type AuditRecord = z.infer<typeof AuditRecord>;

/** Which records `read` answers: a time window and a cap, so reading a long trail stays bounded. */
export interface AuditQuery {
  /** Only records at or after this time (epoch ms). */
  since?: number;
  /** At most this many, the newest kept. Default 1000. */
  limit?: number;
}

export const DEFAULT_AUDIT_READ_LIMIT = 1000;

/**
 * One tenant's audit trail: appended to, never changed. Each backend keeps
 * it beside the tenant's other records (a file, a capped Redis stream, a
 * table), so erasing the tenant erases its trail.
 */
export interface AuditTrail {
  /** Appends one record; rejects when the backend could not keep it. */
  append(record: AuditRecord): Promise<void>;
  /** Records oldest first. */
  read(query?: AuditQuery): Promise<AuditRecord[]>;
}

/** The records of `all` that a query asks for, oldest first: for backends that read everything. */
export function selectRecords(all: readonly AuditRecord[], query: AuditQuery = {}): AuditRecord[] {
  const since = query.since;
  const matching = since === undefined ? [...all] : all.filter((record) => Date.parse(record.at) >= since);
  return matching.slice(-(query.limit ?? DEFAULT_AUDIT_READ_LIMIT));
}

import type { FieldIssue } from '../../errors/index.js';

/** Why the intake refused a delivery, stable for providers' dashboards and our logs alike. */
export type RefusalCode =
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unknown_subscription'
  | 'trigger_unavailable'
  | 'no_signing_secret'
  | 'bad_signature'
  | 'timestamp_outside_window'
  | 'invalid_payload'
  | 'duplicate'
  | 'in_flight'
  | 'handler_failed'
  | 'handler_timeout'
  | 'internal_error';

/**
 * A delivery the intake did not start, with the HTTP status the provider
 * gets. Some are not failures for the provider (a duplicate answers 200 so
 * it stops retrying), but none of them starts anything.
 */
export class IntakeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: RefusalCode,
    message: string,
    readonly issues: readonly FieldIssue[] = [],
    /** What the sender is told instead of the code and message, which then reach only the operator's log. */
    readonly answer?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'IntakeRefusal';
  }
}

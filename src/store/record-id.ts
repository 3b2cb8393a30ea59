import { NotFoundError } from '../errors/index.js';

/** What a store needs to know of a kind's ids: what a record is called and the ids it can have. */
export interface RecordIdRule {
  /** Says what a record is in messages, e.g. `connection`. */
  noun: string;
  /** Every id a record of this kind can have (the same pattern its schema checks). */
  idPattern: RegExp;
}

/**
 * Whether a record of this kind could have this id. A shared store asks
 * before an id reaches a Redis key or a SQL statement, and answers one no
 * record can have as the id of a record nobody holds (`get` undefined,
 * `remove` false, `update` not found), without asking the database: a NUL
 * byte or text Postgres cannot take would otherwise come back as the
 * database's own failure (a 502 naming it, a pooled session thrown away).
 * A write of such a record is refused by the record's schema (input_invalid).
 */
export function isRecordId(id: string, rule: RecordIdRule): boolean {
  return typeof id === 'string' && rule.idPattern.test(id);
}

/** The not-found an `update` of an id nobody holds throws, the same whether no record has it or none can. */
export function noRecordWithId(id: string, rule: RecordIdRule): NotFoundError {
  return new NotFoundError(`No ${rule.noun} with id ${JSON.stringify(String(id).slice(0, 70))}.`);
}

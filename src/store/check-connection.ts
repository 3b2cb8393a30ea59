import { checkRecord } from '../model/check-record.js';
import { Connection } from '../model/connection.js';

/**
 * A connection about to be stored, checked as `put` checks it: bad values
 * are an InputError (with the failing paths), not a raw schema error.
 */
export function checkConnection(value: Connection): Connection {
  return checkRecord(Connection, 'connection', value);
}

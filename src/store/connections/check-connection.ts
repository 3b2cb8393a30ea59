import { Connection } from '../../connection/connection.js';
import { checkRecord } from '../check-record.js';

/**
 * A connection about to be stored, checked as `put` checks it: bad values
 * are an InputError (with the failing paths), not a raw schema error.
 */
export function checkConnection(value: Connection): Connection {
  return checkRecord(Connection, 'connection', value);
}

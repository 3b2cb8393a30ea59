/**
 * A string as a quoted SQL literal, for the one statement that cannot carry
 * parameters: a simple query of two statements (`TenantSessions.readInTenant`).
 * Quotes are doubled; a value with a backslash is written in the `E'...'`
 * form with its backslashes doubled, so it reads the same whatever
 * `standard_conforming_strings` says (node-postgres's `escapeLiteral`).
 */
export function sqlLiteral(value: string): string {
  let body = '';
  let backslash = false;
  for (const character of value) {
    if (character === "'") body += "''";
    else if (character === '\\') {
      body += '\\\\';
      backslash = true;
    } else body += character;
  }
  return backslash ? ` E'${body}'` : `'${body}'`;
}

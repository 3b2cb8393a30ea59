/**
 * A service URL as messages and the doctor show it: no user, no password
 * and, with `dropQuery`, no query string (where a driver may take a
 * password too). `variable` names it when it does not parse.
 */
export function urlWithoutCredentials(url: string, variable: string, dropQuery = false): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    if (dropQuery) parsed.search = '';
    return parsed.toString();
  } catch {
    return `an unparsable ${variable}`;
  }
}

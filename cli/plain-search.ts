/**
 * The query of a `toolsteps search` whose arguments are only words (and
 * `--json`, before or after them), which the command tree would parse the
 * same way, so main can answer it without loading commander and the
 * commands. Anything else (no words, `--help`, `--`, another option) is
 * undefined and goes through the command tree as before, with its usage errors.
 */
export function plainSearch(argv: readonly string[]): { query: string; json: boolean } | undefined {
  const rest = argv.filter((arg) => arg !== '--json');
  const [command, ...words] = rest;
  if (command !== 'search' || !words.length || words.some((word) => word.startsWith('-'))) return undefined;
  return { query: words.join(' '), json: rest.length < argv.length };
}

/** Root options that may come before the command: `--json`, and `--tenant <id>` (or `--tenant=<id>`). */
const TENANT_OPTION = '--tenant';

/**
 * The command the arguments name: the first word after the root options
 * that may precede it. A word that is none of those (`--help`, a typo)
 * is returned as it is.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at] as string;
    if (arg === '--json' || arg.startsWith(`${TENANT_OPTION}=`)) continue;
    if (arg === TENANT_OPTION) {
      at += 1;
      continue;
    }
    return arg;
  }
  return undefined;
}

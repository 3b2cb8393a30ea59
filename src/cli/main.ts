#!/usr/bin/env node
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { plainSearch } from './plain-search.js';

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

const argv = process.argv.slice(2);
const search = plainSearch(argv);
// `--version` alone is what scripts and install checks run most: answer it from
// package.json before loading commander and the command tree (a third of a cold start).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { packageVersion } = await import('../package-root.js');
  process.stdout.write(`${packageVersion()}\n`);
} else if (search) {
  // An agent looking for a step runs `search` often: commander and the command
  // modules would be most of its cold start, and the catalogue needs neither.
  const [{ printSearchResults }, { reportError }] = await Promise.all([
    import('./catalog-lines.js'),
    import('./output.js'),
  ]);
  try {
    printSearchResults(search.query, search.json);
  } catch (error) {
    process.exitCode = reportError(error, { json: search.json });
  }
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(argv);
}

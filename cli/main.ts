#!/usr/bin/env node
import { keepWasmAtBaseline } from './baseline-wasm.js';
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { loadCommandTree, startsServingCommand } from './command-tree.js';
import { plainSearch } from './plain-search.js';

/**
 * The `toolsteps` command. A function rather than top-level await: the
 * package's bin is this module bundled into one CommonJS file (see
 * scripts/bundle-cli.mjs), and CommonJS has no top-level await.
 */
async function main(argv: string[]): Promise<number | undefined> {
  const search = plainSearch(argv);
  // `--version` alone is what scripts and install checks run most: answer it from
  // package.json before loading commander and the command tree (a third of a cold start).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    const { packageVersion } = await import('../src/disk/package-root.js');
    process.stdout.write(`${packageVersion()}\n`);
    return undefined;
  }
  if (search) {
    // An agent looking for a step runs `search` often: commander and the command
    // modules would be most of its cold start, and the catalogue needs neither.
    const [{ printSearchResults }, { reportError }] = await Promise.all([
      import('./catalog-lines.js'),
      import('./output.js'),
    ]);
    try {
      printSearchResults(search.query, search.json);
      return undefined;
    } catch (error) {
      return reportError(error, { json: search.json });
    }
  }
  if (!startsServingCommand(argv)) keepWasmAtBaseline();
  const { runCli } = await loadCommandTree(argv);
  return runCli(argv);
}

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);
main(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});

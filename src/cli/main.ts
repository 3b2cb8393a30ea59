#!/usr/bin/env node
import { endQuietlyOnClosedPipe } from './closed-pipe.js';

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

const argv = process.argv.slice(2);
// `--version` alone is what scripts and install checks run most: answer it from
// package.json before loading commander and the command tree (a third of a cold start).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { packageVersion } = await import('../package-root.js');
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(argv);
}

#!/usr/bin/env node
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { runCli } from './program.js';

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

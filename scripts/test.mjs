#!/usr/bin/env node
// `npm test`: the type check, the lint/format check and the test suite, at once.
//
// Why at once: run one after the other, tsc held one core for its minute while
// the other sat idle, and the suite only started after; the suite itself waits
// much of its time on sockets, child processes and timers. Side by side, each
// fills the other's idle time. The checks' output is held back and printed
// whole when each ends, so it never cuts through the suite's lines; the
// command fails when any of the three fails. The type check is incremental
// (its build info under node_modules/.cache/tsc): after a change it checks
// again what the change reaches, in seconds; a fresh clone checks all.
//
// Usage: npm test [-- <vitest arguments>]   (the arguments go to `vitest run`)
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A check run as its npm script, its output held until it ends; resolves with its exit code. */
function check(script) {
  const started = Date.now();
  const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const status = code ?? 1;
      const took = `${Math.round((Date.now() - started) / 1000)} s`;
      const text = Buffer.concat(output).toString().trimEnd();
      process.stdout.write(
        `\n[npm test] ${script} ${status === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${took}\n${text ? `${text}\n` : ''}`,
      );
      resolve(status);
    });
  });
}

/** `vitest run` with the command's arguments, printing as it goes. */
function suite() {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const codes = await Promise.all([check('typecheck'), check('lint'), suite()]);
process.exit(codes.find((code) => code !== 0) ?? 0);

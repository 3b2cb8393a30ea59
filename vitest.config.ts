import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirst } from './test/support/slow-first.js';

// CI asks for a JSON report to print its "N passed, N failed" line.
const reportFile = process.env.TOOLSTEPS_TEST_REPORT;

const TESTS = 'test/**/*.test.ts';

/**
 * nock intercepts the process's fetch from its first import to the process's
 * end: a file that uses nock (directly or through a helper of test/support)
 * runs in the `nock` project, whose workers hold only such files, and
 * test/support/nock-between-files.ts clears what each left for the next.
 */
const USES_NOCK = /from '(nock|[./]+\/support\/(lost-writes|nock-ticketing)\.js)'/;

/**
 * A file that stops a serving command as a terminal would sends the process
 * a signal (`process.emit('SIGTERM')`, or cli-harness's `stopListening`):
 * a handler another file left in a shared worker would answer it too, and
 * one that exits takes the worker down with the files after it.
 */
const SENDS_SIGNALS = /process\.emit\('SIG|stopListening\(/;

/**
 * A file that registers an OpenTelemetry SDK (test/support/otel-sdk.ts) turns
 * telemetry on for the whole process: the files after it in a shared worker
 * would emit spans, and ones that assert no OpenTelemetry module is loaded
 * would fail.
 */
const REGISTERS_OTEL = /from '(@opentelemetry\/sdk-[\w-]+|[./]+\/support\/otel-sdk\.js)'/;

function filesMatching(pattern: RegExp): string[] {
  return readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('test', file))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')));
}
/** Files that assert something of the whole process, which files before them in a worker could have changed. */
const PROCESS_WIDE = [
  // No promise hook is on: any AsyncLocalStorage an earlier file used would have turned one on.
  'test/store/connections/file-connection-store.test.ts',
];
const ownProcess = [...filesMatching(SENDS_SIGNALS), ...filesMatching(REGISTERS_OTEL), ...PROCESS_WIDE];
const nocked = filesMatching(USES_NOCK).filter((file) => !ownProcess.includes(file));

export default defineConfig({
  test: {
    // Compiles and bundles once what a dozen files run as child processes (see the file).
    globalSetup: ['test/support/global-setup.ts'],
    // Three on the 2-core machine: most files wait (on sockets, child processes, a Redis
    // outage, Chromium) far more than they compute, and with two workers the machine ran
    // at 1.3 cores of 2 (docs/benchmarks.md, "The test command's own time").
    maxWorkers: Number(process.env.TOOLSTEPS_TEST_WORKERS) || 3,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    sequence: { sequencer: SlowFirst },
    reporters: reportFile ? ['default', ['json', { outputFile: reportFile }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: [TESTS],
          // Files follow one another in a worker that stays, importing the library, the
          // catalogue and zod once instead of once per file (most of a file's start).
          isolate: false,
          exclude: [...configDefaults.exclude, ...nocked, ...ownProcess],
          setupFiles: ['test/support/shared-worker.ts', 'test/support/suite-telemetry-capture.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'nock',
          include: nocked.length ? nocked : ['-'],
          isolate: false,
          setupFiles: [
            'test/support/shared-worker.ts',
            'test/support/nock-between-files.ts',
            'test/support/suite-telemetry-capture.ts',
          ],
        },
      },
      { extends: true, test: { name: 'own-process', include: ownProcess.length ? ownProcess : ['-'] } },
    ],
  },
});

import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleForChild } from './bundle-for-child.js';
import { scanSuiteTelemetry } from './suite-telemetry-scan.js';
import { childCache, compiledModules, TRANSPILED } from './transpile-for-child.js';

/**
 * Once per `vitest run`, before any test file: compiles every module a
 * child process of a test may run (test/support/transpile-for-child.ts
 * keeps each by a hash of its source) and bundles the CLI
 * (test/support/bundle-for-child.ts), so the dozen test files that start
 * the CLI or a worker copy what is made here instead of compiling and
 * bundling the same sources each. A file that finds nothing stored still
 * makes its own, so a test run alone needs none of this.
 */
const SOURCE_FOLDERS = ['src', 'cli', 'steps', 'sandbox'];
/** Children the tests start from modules of their own (the coordination tests' worker). */
const TEST_ENTRIES = ['test/coordination/support/coordination-worker.ts'];
const CACHE = 'toolsteps-global-setup';
/** Kept this long since written: a checkout's sources of last week are rarely asked for again. */
const KEEP_MS = 7 * 24 * 3600_000;

async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(path.relative(process.cwd(), entry.parentPath), entry.name));
}

/** Removes what was stored more than a week ago under `folder` (files and bundle folders alike). */
async function prune(folder: string, depth: number): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && depth > 0) {
      await prune(full, depth - 1);
    } else if (Date.now() - (await stat(full)).mtimeMs > KEEP_MS) {
      await rm(full, { recursive: true, force: true });
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared and nock projects' workers write what their telemetry exported ('' when off). */
    telemetryCaptureDir: string;
  }
}

/**
 * Also, unless `TOOLSTEPS_TELEMETRY_SCAN=off`: a folder for what the suite's
 * telemetry exports (test/support/suite-telemetry-capture.ts), scanned for
 * private data when the run ends; a finding fails the run.
 */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const scanned = process.env.TOOLSTEPS_TELEMETRY_SCAN !== 'off';
  const captured = scanned ? await mkdtemp(path.join(os.tmpdir(), 'toolsteps-telemetry-')) : '';
  project.provide('telemetryCaptureDir', captured);
  await prune(TRANSPILED, 1);
  await prune(path.join(childCache(), 'toolsteps-cli-bundles'), 0);
  const all = (await Promise.all(SOURCE_FOLDERS.map(sources))).flat();
  await compiledModules([...all, ...TEST_ENTRIES]);
  await bundleForChild(CACHE);
  if (!captured) return undefined;
  return async () => {
    // A project none of whose files captured (the own-process one) has nothing to say.
    if (!(await readdir(captured)).length) return void (await rm(captured, { recursive: true, force: true }));
    try {
      const { findings, summary } = await scanSuiteTelemetry(captured);
      process.stdout.write(`${summary}\n`);
      if (findings.length) {
        // An error thrown here is printed but does not change vitest's exit code; this does.
        process.stderr.write(`Private data in the suite's telemetry:\n${findings.slice(0, 40).join('\n')}\n`);
        process.exitCode = 1;
      }
    } finally {
      await rm(captured, { recursive: true, force: true });
    }
  };
}

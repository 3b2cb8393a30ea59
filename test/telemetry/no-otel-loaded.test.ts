import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE_HOOK } from '../support/loaded-modules.js';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * With `@opentelemetry/api` installed (it is, in this repository) and no SDK
 * registered, the library imports nothing of OpenTelemetry: not on import,
 * not while it runs a step over real sockets. Observed in a child process
 * under the benchmark's loader hook, which lists every file Node loads.
 */

let root: string;
let scratch: string;

beforeAll(async () => {
  root = await transpileForChild(['src/index.ts', 'steps/index.ts', 'sandbox/index.ts'], 'toolsteps-no-otel');
  scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-no-otel-'));
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function loadedBy(script: string): { stdout: string; files: string[] } {
  const log = path.join(scratch, `modules-${process.hrtime.bigint()}.log`);
  const result = spawnSync(process.execPath, ['--import', MODULE_HOOK, '--input-type=module', '-e', script], {
    env: { ...process.env, TOOLSTEPS_MODULE_LOG: log, TOOLSTEPS_HOME: scratch },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return {
    stdout: result.stdout,
    files: [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))],
  };
}

const module = (file: string) => JSON.stringify(pathToFileURL(path.join(root, file)).href);
const OPENTELEMETRY = /\/node_modules\/@opentelemetry\//;

describe('no SDK registered', () => {
  it('is where @opentelemetry/api is installed: the check below could fail', () => {
    expect(createRequire(path.join(root, 'src/index.js')).resolve('@opentelemetry/api')).toMatch(
      OPENTELEMETRY,
    );
  });

  it("import 'toolsteps' and a step run over real sockets load no OpenTelemetry module", () => {
    const script = `
      const { Runtime, MemoryConnectionStore } = await import(${module('src/index.js')});
      const { createRegistry } = await import(${module('steps/index.js')});
      const { startSandbox, sandboxConnections } = await import(${module('sandbox/index.js')});
      const sandbox = await startSandbox();
      const registry = createRegistry();
      const { contact_data } = await sandboxConnections(sandbox, { registry, integrations: ['contact_data'] });
      const runtime = new Runtime({ store: new MemoryConnectionStore([contact_data]) });
      const result = await registry.invoke(runtime, 'contact_data.find_company', {
        connection: contact_data.id,
        input: { domain: 'contoso.example' },
      });
      console.log(result.meta.attempts);
      await sandbox.close();
    `;
    const { stdout, files } = loadedBy(script);
    expect(stdout.trim()).toBe('1');
    expect(files.some((file) => file.includes('/src/telemetry/'))).toBe(true);
    expect(files.filter((file) => OPENTELEMETRY.test(file))).toEqual([]);
  }, 60_000);
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE_HOOK, offenders, PACKAGE_VERSION } from '../support/loaded-modules.js';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * What a cold start loads (issue 14), observed in a real child process: the
 * sources are compiled to JavaScript and run under the benchmark's loader hook,
 * which lists every file Node loads. The library entry must load no CLI, no
 * emulator and no agent SDK; `--version`, `--help` and `search` must load only
 * what they use, because every file is paid for on each start of the CLI.
 */

/** Files no start of the CLI or import of the library should need unless its command uses them. */
const NEVER_AT_START: Record<string, RegExp> = {
  sandbox: /\/sandbox\//,
  demo: /\/cli\/demo\//,
  agents: /\/src\/agents\//,
  'triggers intake': /\/src\/triggers\/intake\//,
  'csv-parse': /\/node_modules\/csv-parse\//,
  undici: /\/node_modules\/undici\//,
  MCP: /\/node_modules\/@modelcontextprotocol\//,
  'AI SDK': /\/node_modules\/(ai|@ai-sdk\/[^/]+)\//,
};

/** What neither the command tree nor the catalogue needs: the steps and their schemas. */
const NOT_FOR_THE_CATALOGUE: Record<string, RegExp> = {
  steps: /\/steps\//,
  zod: /\/node_modules\/zod\//,
};

/** What a start that runs no step needs of neither list: no step, zod or runtime either. */
const NOT_WITHOUT_A_STEP: Record<string, RegExp> = {
  ...NEVER_AT_START,
  ...NOT_FOR_THE_CATALOGUE,
  runtime: /\/src\/runtime\//,
};

/** What main answers `--version` and a plain `search` without: commander and the command tree. */
const NOT_WITHOUT_THE_COMMAND_TREE: Record<string, RegExp> = {
  ...NOT_WITHOUT_A_STEP,
  'the command tree': /\/cli\/(program|commands\/.*)\.js$/,
  commander: /\/node_modules\/commander\//,
};

let root: string;
let scratch: string;

beforeAll(async () => {
  root = await transpileForChild(['src/index.ts', 'cli/main.ts'], 'toolsteps-startup-imports');
  scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-startup-'));
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs node with the hook and returns what it printed and every file it loaded. */
function loadedBy(args: string[]): { stdout: string; files: string[] } {
  const log = path.join(scratch, `modules-${process.hrtime.bigint()}.log`);
  const result = spawnSync(process.execPath, ['--import', MODULE_HOOK, ...args], {
    env: { ...process.env, TOOLSTEPS_MODULE_LOG: log, TOOLSTEPS_HOME: scratch },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const files = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  return { stdout: result.stdout, files };
}

describe('what a cold start loads', () => {
  it("import 'toolsteps' loads no CLI, commander, emulator, demo, MCP or AI SDK module", () => {
    const entry = pathToFileURL(path.join(root, 'src/index.js')).href;
    const { files } = loadedBy(['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`]);
    expect(files).toContain(entry);
    // The library exports the trigger intake and the transport, so those may load; nothing else of the list.
    const { 'triggers intake': _intake, undici: _undici, ...forbidden } = NEVER_AT_START;
    Object.assign(forbidden, { CLI: /\/cli\//, commander: /\/node_modules\/commander\// });
    expect(offenders(files, forbidden)).toEqual([]);
  }, 60_000);

  it('toolsteps --version prints the package version and loads neither the steps nor the runtime', () => {
    const { stdout, files } = loadedBy([path.join(root, 'cli/main.js'), '--version']);
    expect(stdout.trim()).toBe(PACKAGE_VERSION);
    expect(offenders(files, NOT_WITHOUT_THE_COMMAND_TREE)).toEqual([]);
  }, 60_000);

  it('toolsteps -V and --version among other arguments still go through the command tree', () => {
    expect(loadedBy([path.join(root, 'cli/main.js'), '-V']).stdout.trim()).toBe(PACKAGE_VERSION);
    const { stdout } = loadedBy([path.join(root, 'cli/main.js'), '--json', '--version']);
    expect(stdout.trim()).toBe(PACKAGE_VERSION);
  }, 60_000);

  it('toolsteps --help lists the commands without loading any of them', () => {
    const { stdout, files } = loadedBy([path.join(root, 'cli/main.js'), '--help']);
    expect(stdout).toContain('search <words...>');
    expect(stdout).toContain('sandbox');
    expect(offenders(files, NOT_WITHOUT_A_STEP)).toEqual([]);
  }, 60_000);

  it('toolsteps search answers from manifest.json: no commander, command tree, step, zod, runtime, transport, emulator or CSV parser', () => {
    const { stdout, files } = loadedBy([path.join(root, 'cli/main.js'), 'search', 'zendesk']);
    expect(stdout).toContain('ticketing.create_ticket');
    expect(offenders(files, NOT_WITHOUT_THE_COMMAND_TREE)).toEqual([]);
  }, 60_000);

  it('toolsteps run --help declares the run command alone: no other command module', () => {
    const { stdout, files } = loadedBy([path.join(root, 'cli/main.js'), 'run', '--help']);
    expect(stdout).toContain('Usage: toolsteps run');
    expect(
      offenders(files, {
        ...NOT_WITHOUT_A_STEP,
        'another command': /\/cli\/commands\/(?!run-command\.js$)[^/]+\.js$/,
      }),
    ).toEqual([]);
  }, 60_000);
});

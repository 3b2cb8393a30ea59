import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { type BundledCli, bundleForChild } from '../support/bundle-for-child.js';
import { MODULE_HOOK, offenders, PACKAGE_VERSION } from '../support/loaded-modules.js';
import { useTempDir } from '../support/temp-dir.js';

/**
 * The package's bin is one CommonJS bundle of the CLI (scripts/bundle-cli.mjs),
 * built here from the current sources and run as a child process, under the
 * benchmark's loader hook, which lists every file Node loads besides it. The
 * bundle must stay lean (a cold start parses all of it) and must not pull in
 * at start what only some commands use.
 */

const TOKEN_VARIABLE = 'TS_BUNDLED_TOKEN';
const run = promisify(execFile);

/** Packages the bundle leaves outside, for the commands that use them only. */
const LOADED_ONLY_WHEN_USED: Record<string, RegExp> = {
  undici: /\/node_modules\/undici\//,
  'json-p3': /\/node_modules\/json-p3\//,
  re2js: /\/node_modules\/re2js\//,
  'csv-parse': /\/node_modules\/csv-parse\//,
  MCP: /\/node_modules\/@modelcontextprotocol\//,
  'AI SDK': /\/node_modules\/(ai|@ai-sdk\/[^/]+)\//,
  ioredis: /\/node_modules\/ioredis\//,
  // Dependencies the package installs, loaded from node_modules by the one command that needs them.
  yaml: /\/node_modules\/yaml\//,
  jose: /\/node_modules\/jose\//,
};

let bundled: BundledCli;
let sandbox: Sandbox;
const home = useTempDir('toolsteps-bundled-', 'all');

beforeAll(async () => {
  bundled = await bundleForChild('toolsteps-bundled-cli');
  sandbox = await startSandbox();
  const added = await cli([
    'connections',
    'add',
    'ticketing',
    '--id',
    'desk',
    '--subdomain',
    'acme',
    '--base-url',
    sandbox.baseUrl('ticketing', 'acme'),
    '--access-token-env',
    TOKEN_VARIABLE,
  ]);
  expect(added.status, added.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  files: string[];
}

/**
 * The bundled CLI in a child process, under the loader hook; every file it
 * loaded besides itself. Asynchronous: the sandbox answers from this process.
 */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const log = path.join(home(), `modules-${process.hrtime.bigint()}.log`);
  const result = await run(process.execPath, ['--import', MODULE_HOOK, bundled.main, ...args], {
    env: {
      ...process.env,
      TOOLSTEPS_HOME: home(),
      TOOLSTEPS_MODULE_LOG: log,
      NO_COLOR: '1',
      [TOKEN_VARIABLE]: sandbox?.ticketing.issueTokens('acme').access_token ?? '',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }: { stdout: string; stderr: string }) => ({ status: 0, stdout, stderr }),
    (error: { code?: number | null; stdout?: string; stderr?: string }) => ({
      status: typeof error.code === 'number' ? error.code : null,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  let logged: string[] = [];
  try {
    logged = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    // Nothing was logged.
  }
  const own = pathToFileURL(bundled.main).href;
  const files = [...new Set(logged)].filter(
    (file) => file !== own && !file.startsWith(MODULE_HOOK.replace(/[^/]+$/, '')),
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, files };
}

/** `toolsteps run <step>` for ticket 1 on the sandbox's ticketing connection. */
function runOnTicketOne(step: string): Promise<CliRun> {
  return cli(['run', step, '--connection', 'desk', '--input', '{"ticket_id":1}']);
}

/** Source modules with code in the bundle (esbuild also lists those it read and shook out entirely). */
function bundledModules(): string[] {
  return Object.values(bundled.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([module]) => module),
  );
}

describe('the bundled CLI (the package bin)', () => {
  it('is strict-mode code, as the ES modules it is built from are', () => {
    const [shebang, directive] = readFileSync(bundled.main, 'utf8').split('\n');
    expect(shebang).toBe('#!/usr/bin/env node');
    expect(directive).toBe("'use strict';");
    expect(readFileSync(bundled.commands, 'utf8').split('\n')[0]).toBe("'use strict';");
  });

  it('holds one locale of zod (its default), not the other fifty: zod is imported as a namespace', () => {
    const inputs = bundledModules();
    expect(inputs.filter((input) => /zod\/v4\/locales\/(?!(en|index)\.js$)/.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('zod/v4/locales/en.js'))).toBe(true);
  });

  it('leaves the optional peers and the lazily required packages outside the bundle', () => {
    const inputs = bundledModules();
    expect(inputs.filter((input) => offenders([`/${input}`], LOADED_ONLY_WHEN_USED).length > 0)).toEqual([]);
  });

  it('loads the optional peers with require: the command tree runs as a vm script (the code cache), where import() needs an experimental hook', () => {
    const code = readFileSync(bundled.commands, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'));
    const calls = code.filter((line) => /(^|[^\w.$'"])import\(/.test(line));
    expect(calls).toEqual([]);
    expect(code.some((line) => line.includes('require("ioredis")'))).toBe(true);
  });

  it('--version and search answer from the bin alone: no command tree, no package', async () => {
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toBe(PACKAGE_VERSION);
    expect(version.files).toEqual([]);
    const search = await cli(['search', 'zendesk']);
    expect(search.stdout).toContain('ticketing.create_ticket');
    expect(search.files).toEqual([]);
  }, 60_000);

  it('runs a read step against the sandbox, loading none of the packages left outside', async () => {
    const step = await runOnTicketOne('ticketing.get_ticket_info');
    expect(step.stderr).toBe('');
    expect(step.status).toBe(0);
    expect(step.stdout).toContain('"subject"');
    expect(offenders(step.files, LOADED_ONLY_WHEN_USED)).toEqual([]);
  }, 60_000);

  it('signs a token with the jose npm installed, imported through the bin (jose is ES modules only)', async () => {
    const made = await cli(['--tenant', 'acme', 'tokens', 'create', '--scope', 'mcp'], {
      TOOLSTEPS_TOKEN_KEY: 'bundled-cli-token-key-0123456789abcdefgh',
    });
    expect(made.stderr).toContain('tenant acme');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{43}\n$/);
    expect(made.files.some((file) => LOADED_ONLY_WHEN_USED.jose?.test(file))).toBe(true);
  }, 60_000);

  it('reads a scenario and a scripted agent with the yaml npm installed, and runs them', async () => {
    const out = path.join(home(), 'eval-report');
    const scenario = 'docs/examples/eval/scenarios/triage-ticket.yaml';
    const evaluated = await cli([
      'eval',
      scenario,
      '--agent',
      'docs/examples/eval/agents/triage-pass.yaml',
      '--out',
      out,
    ]);
    expect(evaluated.stderr).toBe('');
    expect(evaluated.stdout).toContain('PASS triage-ticket: 1/1 run(s) passed');
    expect(evaluated.status).toBe(0);
    expect(evaluated.files.some((file) => LOADED_ONLY_WHEN_USED.yaml?.test(file))).toBe(true);
  }, 120_000);

  it('holds a table of the step modules, so `run` evaluates its own step and not the whole catalogue', () => {
    // esbuild turns the template-literal import into a map from each matching path to its module.
    const text = readFileSync(bundled.commands, 'utf8');
    const table = [...text.matchAll(/"\.\.\/steps\/([a-z-]+\/[a-z-]+\.js)":\s*\(\)\s*=>/g)].map(
      (match) => match[1],
    );
    expect(table).toContain('ticketing/get-ticket-info.js');
    expect(table).toContain('deployments/list-deployments.js');
  });

  it('a step id that names no bundled module goes to the registry and its suggestions', async () => {
    const typo = await runOnTicketOne('ticketing.get_tiket_info');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('Did you mean: ticketing.get_ticket_info');
  }, 60_000);

  it('describe prints the JSON Schemas zod builds, and a trigger names its signature scheme', async () => {
    const step = await cli(['describe', 'ticketing.get_ticket_info', '--json']);
    expect(step.status).toBe(0);
    const described = JSON.parse(step.stdout) as { input: { properties: Record<string, unknown> } };
    expect(Object.keys(described.input.properties)).toContain('ticket_id');
    const trigger = await cli(['triggers', 'describe', 'ticketing.ticket_status_changed']);
    expect(trigger.status).toBe(0);
    expect(trigger.stdout).toMatch(/signature: .*HMAC-SHA256/);
  }, 60_000);
});

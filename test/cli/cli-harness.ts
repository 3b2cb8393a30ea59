import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, type MockInstance, vi } from 'vitest';
import { runCli } from '../../cli/program.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { statusSubscriptionArgs } from '../triggers/trigger-fixtures.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** What the process writes to stdout and stderr from now on, kept from the terminal until `restore`. */
export function captureOutput() {
  const result = { out: '', err: '' };
  const stdout = capture(process.stdout, (chunk) => {
    result.out += chunk;
  });
  const stderr = capture(process.stderr, (chunk) => {
    result.err += chunk;
  });
  return {
    result,
    restore: () => {
      stdout.mockRestore();
      stderr.mockRestore();
    },
  };
}

/** Runs the CLI in this process and captures what it wrote to stdout and stderr. */
export async function cli(...args: string[]): Promise<CliResult> {
  process.exitCode = undefined;
  const { result, restore } = captureOutput();
  try {
    const code = await runCli(args);
    return { code, ...result };
  } finally {
    restore();
    process.exitCode = undefined;
  }
}

/** Stops a stream's writes from reaching the terminal and hands each chunk to `record` instead. */
function capture(stream: NodeJS.WriteStream, record: (chunk: string) => void): MockInstance {
  return vi.spyOn(stream, 'write').mockImplementation((chunk) => {
    record(String(chunk));
    return true;
  });
}

/** `toolsteps run <step> --connection <id> --input <json>` with any further flags. */
export function runStep(step: string, connection: string, input: unknown, ...flags: string[]) {
  return cli('run', step, '--connection', connection, '--input', JSON.stringify(input), ...flags);
}

/** The `{error}` document a `--json` run printed on stdout. */
export function jsonError(result: CliResult): { code: string; message: string; [key: string]: unknown } {
  return (JSON.parse(result.out) as { error: { code: string; message: string } }).error;
}

/** `runStep` with `--json` for a run the CLI must refuse before sending (exit 2): the error it printed. */
export async function refusedRun(step: string, connection: string, input: unknown, ...flags: string[]) {
  const result = await runStep(step, connection, input, ...flags, '--json');
  expect(result.code).toBe(2);
  return jsonError(result);
}

/** Where a CLI test file's runs keep their connections, and the sandbox they talk to. */
export interface CliWorld {
  home: string;
  sandbox: Sandbox;
}

/** A fresh TOOLSTEPS_HOME (a temporary folder named from `prefix`) and a started sandbox. */
export async function openCliWorld(prefix: string, sandbox: SandboxOptions = {}): Promise<CliWorld> {
  const home = await mkdtemp(path.join(os.tmpdir(), prefix));
  process.env.TOOLSTEPS_HOME = home;
  return { home, sandbox: await startSandbox(sandbox) };
}

/**
 * `openCliWorld` before the tests of the file (or enclosing describe) and
 * `closeCliWorld` after them, unsetting the test's own variables in `env`.
 * The world's fields are there once its beforeAll has run.
 */
export function useCliWorld(
  prefix: string,
  options: { sandbox?: SandboxOptions; env?: string[] } = {},
): CliWorld {
  const world = {} as CliWorld;
  beforeAll(async () => {
    Object.assign(world, await openCliWorld(prefix, options.sandbox));
  });
  afterAll(() => closeCliWorld(world, ...(options.env ?? [])));
  return world;
}

/**
 * A fresh TOOLSTEPS_HOME for each test of the enclosing describe (or one for
 * all of them, with `scope: 'all'`), deleted after, with TOOLSTEPS_HOME and
 * the test's own variables in `env` unset. Returns where the current one is.
 */
export function useCliHome(
  prefix: string,
  options: { scope?: 'each' | 'all'; env?: string[] } = {},
): () => string {
  let home = '';
  const all = options.scope === 'all';
  (all ? beforeAll : beforeEach)(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), prefix));
    process.env.TOOLSTEPS_HOME = home;
  });
  (all ? afterAll : afterEach)(async () => {
    await rm(home, { recursive: true, force: true });
    for (const name of ['TOOLSTEPS_HOME', ...(options.env ?? [])]) delete process.env[name];
  });
  return () => home;
}

/**
 * `toolsteps connections add <integration> --id <id>` with the secret passed
 * the way the CLI requires, through an environment variable (`env`) it sets
 * to `secret` first; `--access-token-env` unless a flag for another kind is named.
 */
export function addConnection(
  integration: string,
  id: string,
  secret: { env: string; value: string; flag?: '--access-token-env' | '--api-key-env' },
  ...flags: string[]
): Promise<CliResult> {
  process.env[secret.env] = secret.value;
  return cli(
    'connections',
    'add',
    integration,
    '--id',
    id,
    ...flags,
    secret.flag ?? '--access-token-env',
    secret.env,
  );
}

/** The flags of `connect`/`connections add ticketing` that point a connection at the sandbox's `acme` account. */
export function acmeDesk(sandbox: Sandbox): string[] {
  return ['--subdomain', 'acme', '--base-url', sandbox.baseUrl('ticketing', 'acme')];
}

/** A ticketing connection to the sandbox's `acme` account, with a token for its seeded admin. */
export function addSandboxTicketing(sandbox: Sandbox, id: string, env: string, ...flags: string[]) {
  const token = { env, value: sandbox.ticketing.issueTokens('acme').access_token };
  return addConnection('ticketing', id, token, ...acmeDesk(sandbox), ...flags);
}

/** A deployments connection to the sandbox, with a token for its seeded user 1, "ada" (team acme: projects shop and docs). */
export function addSandboxDeployments(sandbox: Sandbox, id: string, env: string, ...flags: string[]) {
  const token = { env, value: sandbox.deployments.issueToken(1) };
  return addConnection('deployments', id, token, '--base-url', sandbox.baseUrl('deployments'), ...flags);
}

/** `toolsteps triggers create <trigger> --connection <connection> --target <target>`, and `flags`. */
export function createTrigger(trigger: string, connection: string, target: string, ...flags: string[]) {
  return cli('triggers', 'create', trigger, '--connection', connection, '--target', target, ...flags);
}

/**
 * `triggers create` of a status-change subscription through `desk` to
 * 127.0.0.1:`port` whose deliveries the test signs itself (`--manual`) with
 * `secret`, passed the way the CLI requires, through a variable set for the
 * command alone (the subscription keeps the secret); and `flags` (`--json`,
 * `--tenant <id>`).
 */
export async function createManualSubscription(port: number, secret: string, ...flags: string[]) {
  process.env.TS_HOOK_SECRET = secret;
  try {
    return await cli(...statusSubscriptionArgs(port), '--manual', '--secret-env', 'TS_HOOK_SECRET', ...flags);
  } finally {
    delete process.env.TS_HOOK_SECRET;
  }
}

/** Closes the sandbox, deletes the home, and unsets TOOLSTEPS_HOME and the test's own variables in `env`. */
export async function closeCliWorld(world: CliWorld, ...env: string[]): Promise<void> {
  await world.sandbox.close();
  await rm(world.home, { recursive: true, force: true });
  for (const name of ['TOOLSTEPS_HOME', ...env]) delete process.env[name];
}

/**
 * Stops a running `toolsteps listen` as a terminal would (SIGTERM) and
 * returns what it printed, with the events it started read from stdout
 * (one JSON document a line, under `--json`).
 */
export async function stopListening(
  listening: Promise<CliResult>,
): Promise<CliResult & { events: TriggerEvent[] }> {
  process.emit('SIGTERM');
  const result = await listening;
  const lines = result.out.trim().split('\n').filter(Boolean);
  return { ...result, events: lines.map((line) => JSON.parse(line) as TriggerEvent) };
}

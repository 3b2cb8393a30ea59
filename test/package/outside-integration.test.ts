import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotesProvider } from '../../docs/examples/notes-integration/src/server.js';
import type { Registry } from '../../src/catalog/registry.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { packedPackage } from '../support/packed-package.js';

/**
 * docs/examples/notes-integration, an integration written as an outside
 * author writes one: its own package, strict NodeNext with skipLibCheck off,
 * toolsteps installed from the packed tarball (never from this repository's
 * sources). The suite type-checks it, runs its steps against its own
 * stand-in provider, delivers signed events to its trigger, lists its tools
 * over MCP, and checks that its misspellings are compile errors. Its modules
 * and toolsteps are loaded from the installed copy, so what runs is what an
 * author's project runs.
 */

const run = promisify(execFile);
const repo = process.cwd();
const EXAMPLE = path.join(repo, 'docs/examples/notes-integration');
const API_KEY = 'notes-test-key-0123456789';

/**
 * Files that each misspell one name: tsc must refuse each, with its own
 * error. Compiled in the same run as the package (one tsc, not two), so an
 * error anywhere else fails the type check instead.
 */
const MISSPELLINGS = {
  'step-id-in-invoke': {
    code: `await registry.invoke(runtime, 'notes.get_nte', { connection: 'acme', input: { note_id: 'n_1' } });`,
    expected: /TS2345: Argument of type '"notes\.get_nte"' is not assignable/,
  },
  'field-in-input': {
    code: `await registry.invoke(runtime, 'notes.get_note', { connection: 'acme', input: { note_idd: 'n_1' } });`,
    expected: /'note_idd' does not exist/,
  },
  'option-field-in-step': {
    code: [
      "import { defineStep } from 'toolsteps/kit';",
      "import * as z from 'zod';",
      "import { notebookOptions, notes } from '../src/index.js';",
      'defineStep({',
      "  id: 'notes.pick_notebook', integration: notes, title: 'Pick', description: '.', agentDescription: '.',",
      "  keywords: [], input: z.strictObject({ notebook: z.string() }), output: z.object({}), access: 'read',",
      '  idempotent: true, variables: {}, options: { notebok: notebookOptions }, run: async () => ({}),',
      '});',
    ].join('\n'),
    expected: /'notebok' does not exist/,
  },
  'option-field-in-options': {
    code: `await registry.options(runtime, 'notes.create_note', 'notebok', { connection: 'acme' });`,
    expected: /'"notebok"' is not assignable/,
  },
  'trigger-id': {
    code: [
      "import { MemorySubscriptionStore, TriggerSubscriptions } from 'toolsteps';",
      'const subscriptions = new TriggerSubscriptions({',
      "  triggers: registry, runtime, subscriptions: new MemorySubscriptionStore(), entitlements: { plan: 'enterprise' },",
      '});',
      "await subscriptions.create({ trigger: 'notes.note_craeted', connection: 'acme', target: 'https://agents.example' });",
    ].join('\n'),
    expected: /'"notes\.note_craeted"' is not assignable/,
  },
} as const;

/**
 * Where the example is installed: outside the repository (so nothing
 * resolves from its node_modules), one folder per checkout.
 */
const INSTALLS = path.join(
  os.tmpdir(),
  'toolsteps-outside-integration',
  createHash('sha256').update(repo).digest('hex').slice(0, 12),
);

/**
 * A copy of the example with its dependencies installed as its author's
 * project installs them (the tarball, zod and the MCP SDK, from npm's cache
 * where it has them, with the example's own typescript and @types/node). Kept for the same tarball and package.json, so a
 * run whose sources did not change installs nothing, and tsc's incremental
 * state there skips checking the installed declarations again.
 */
async function installedExample(tarball: string): Promise<string> {
  const manifest = await readFile(path.join(EXAMPLE, 'package.json'), 'utf8');
  const key = createHash('sha256').update(`${tarball}\0${manifest}`).digest('hex').slice(0, 24);
  const project = path.join(INSTALLS, key);
  if (!existsSync(project)) {
    // Installs of other tarballs are of sources since changed: only the newest is kept.
    await rm(INSTALLS, { recursive: true, force: true });
    const partial = `${project}.partial`;
    await mkdir(partial, { recursive: true });
    await writeFile(path.join(partial, 'package.json'), manifest);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: partial,
    });
    await rename(partial, project);
  }
  // The sources and settings as they are now, and only those.
  for (const name of ['src', 'misspelt', 'tsconfig.json']) {
    await rm(path.join(project, name), { recursive: true, force: true });
  }
  await cp(path.join(EXAMPLE, 'src'), path.join(project, 'src'), { recursive: true });
  await cp(path.join(EXAMPLE, 'tsconfig.json'), path.join(project, 'tsconfig.json'));
  return project;
}

function misspeltFile(code: string): string {
  return [
    "import { MemoryConnectionStore, Runtime } from 'toolsteps';",
    "import { createNotesRegistry } from '../src/index.js';",
    'const registry = createNotesRegistry();',
    'const runtime = new Runtime({ store: new MemoryConnectionStore() });',
    code,
    '',
  ].join('\n');
}

/**
 * The installed modules, typed by the sources they were built from: the
 * packed toolsteps by this repository's, the example's stand-in provider by
 * its own file (which imports no toolsteps), the example's registry as any
 * registry.
 */
type Toolsteps = typeof import('../../src/index.js');
type ToolstepsMcp = typeof import('../../src/mcp/index.js');
type ProviderServer = typeof import('../../docs/examples/notes-integration/src/server.js');
type NotesPackage = { createNotesRegistry(): Registry };

/**
 * The installed example with the misspelt files beside its sources,
 * compiled in one run of its own tsc by its own tsconfig: tsc's report, ''
 * when clean. It emits even with
 * the misspellings' errors: the package's own files are what the tests run.
 */
async function compileExample(project: string): Promise<string> {
  await mkdir(path.join(project, 'misspelt'));
  for (const [name, { code }] of Object.entries(MISSPELLINGS)) {
    await writeFile(path.join(project, 'misspelt', `${name}.ts`), misspeltFile(code));
  }
  await writeFile(
    path.join(project, 'tsconfig.suite.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: {
        rootDir: '.',
        incremental: true,
        tsBuildInfoFile: 'suite.tsbuildinfo',
      },
      include: ['src', 'misspelt'],
    }),
  );
  const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', 'tsconfig.suite.json'], { cwd: project, maxBuffer: 8 << 20 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

/** The example's registry and stand-in provider, and toolsteps, all loaded from the installed project. */
interface LoadedExample {
  toolsteps: Toolsteps;
  mcp: ToolstepsMcp;
  provider: NotesProvider;
  registry: Registry;
  /** A runtime whose store holds the connection `acme`, aimed at the stand-in provider. */
  runtime: Runtime;
}

async function loadExample(project: string): Promise<LoadedExample> {
  const installed = createRequire(path.join(project, 'package.json'));
  const load = (file: string) => import(pathToFileURL(file).href);
  const toolsteps: Toolsteps = await load(installed.resolve('toolsteps'));
  const notes: NotesPackage = await load(path.join(project, 'built/src/index.js'));
  const server: ProviderServer = await load(path.join(project, 'built/src/server.js'));
  const provider = await server.startNotesProvider({ apiKey: API_KEY });
  const runtime = new toolsteps.Runtime({ store: new toolsteps.MemoryConnectionStore() });
  await runtime.store.put({
    id: 'acme',
    integration: 'notes',
    label: 'Acme workspace',
    kind: 'api_key',
    fields: { workspace: 'acme', baseUrl: provider.url },
    secrets: { apiKey: API_KEY },
    createdAt: Date.now(),
    updatedAt: Date.now(),
  });
  const mcp: ToolstepsMcp = await load(installed.resolve('toolsteps/mcp'));
  return { toolsteps, mcp, provider, registry: notes.createNotesRegistry(), runtime };
}

describe('an outside integration (docs/examples/notes-integration) against the packed package', () => {
  let compiled: string;
  let example: LoadedExample;

  // The pack is shared with published-package, which started it first: on a fresh clone this hook
  // waits for that build and pack beside the suite's slowest files, then installs and compiles.
  beforeAll(async () => {
    const project = await installedExample(await packedPackage());
    compiled = await compileExample(project);
    example = await loadExample(project);
  }, 600_000);

  afterAll(async () => {
    await example?.provider.close();
  });

  /** tsc's error lines, each `<file>(<line>,<col>): error TS<n>: <message>`. */
  const errors = () => compiled.split('\n').filter((line) => line.includes('error TS'));

  it('type-checks strictly (NodeNext, skipLibCheck off) against the installed declarations', () => {
    expect(errors().filter((line) => !line.startsWith('misspelt/'))).toEqual([]);
  });

  for (const [name, misspelling] of Object.entries(MISSPELLINGS)) {
    it(`refuses a misspelt name at compile time: ${name}`, () => {
      const own = errors().filter((line) => line.startsWith(`misspelt/${name}.ts`));
      expect(own.join('\n')).toMatch(misspelling.expected);
    });
  }

  const invoke = (step: string, input: Record<string, unknown>) =>
    example.registry.invokeUnchecked(example.runtime, step, { connection: 'acme', input });

  it('reads a note, and refuses an id that would leave its path segment before sending', async () => {
    const { output, variables } = await invoke('notes.get_note', { note_id: 'n_1' });
    expect(output).toMatchObject({ note: { id: 'n_1', title: 'Welcome' } });
    expect(variables).toEqual({ title: 'Welcome', body: 'Hello.' });
    await expect(invoke('notes.get_note', { note_id: '..' })).rejects.toMatchObject({
      code: 'input_invalid',
    });
    await expect(invoke('notes.get_note', { note_id: 'n_404' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('creates notes and lists them a page at a time', async () => {
    for (const title of ['One', 'Two', 'Three']) {
      await invoke('notes.create_note', { notebook: 'nb_home', title });
    }
    const first = await invoke('notes.list_notes', { notebook: 'nb_home', limit: 2 });
    expect(first.output).toMatchObject({ has_more: true, notes: [{ title: 'One' }, { title: 'Two' }] });
    const cursor = (first.output as { next_cursor: string }).next_cursor;
    const second = await invoke('notes.list_notes', { notebook: 'nb_home', limit: 2, cursor });
    expect(second.output).toMatchObject({ has_more: false, next_cursor: null, notes: [{ title: 'Three' }] });
  });

  it('finds a create whose answer was lost by its reconcile, and makes no second note', async () => {
    const { provider } = example;
    provider.loseNextAnswer('POST');
    const { output, meta } = await invoke('notes.create_note', { notebook: 'nb_work', title: 'Lost answer' });
    const made = provider.notes().filter((note) => note.title === 'Lost answer');
    expect(made).toHaveLength(1);
    expect(output).toEqual({ note: made[0] });
    expect(meta.replay).toMatchObject({ decision: 'reconciled' });
  });

  it('deletes a note, and takes a 404 on the replay of a lost delete as done', async () => {
    const { provider, registry } = example;
    const { output } = await invoke('notes.create_note', { notebook: 'nb_work', title: 'To delete' });
    const id = (output as { note: { id: string } }).note.id;
    provider.loseNextAnswer('DELETE');
    const { output: deleted, meta } = await invoke('notes.delete_note', { note_id: id });
    expect(deleted).toEqual({ deleted: id });
    expect(meta.replay).toMatchObject({ decision: 'already_done' });
    expect(provider.notes().map((note) => note.id)).not.toContain(id);
    expect(registry.requireStep('notes.delete_note').access).toBe('destructive');
  });

  it("offers the account's notebooks as the choices of create_note's notebook, searched at the provider", async () => {
    const { registry, runtime } = example;
    const all = await registry.options(runtime, 'notes.create_note', 'notebook', { connection: 'acme' });
    expect(all.items.map((item) => item.value)).toEqual(['nb_work', 'nb_home', 'nb_ideas']);
    const found = await registry.options(runtime, 'notes.create_note', 'notebook', {
      connection: 'acme',
      query: 'wor',
    });
    expect(found.items).toEqual([{ value: 'nb_work', label: 'Work', description: 'ann@acme.example' }]);
  });

  describe('its trigger', () => {
    let intake: Server;
    let target: string;
    let subscriptionsOf: TriggerSubscriptions;
    const started: { event_id: string; variables: Record<string, unknown> }[] = [];

    beforeAll(async () => {
      const { toolsteps, registry, runtime } = example;
      const handler = async (event: (typeof started)[number]) => void started.push(event);
      const subscriptions = new toolsteps.MemorySubscriptionStore();
      const listener = toolsteps.toNodeListener(
        toolsteps.createIntake({
          subscriptions,
          dedupe: new toolsteps.MemoryDedupeStore(),
          triggers: registry,
          handler,
        }),
      );
      intake = createServer(listener);
      await new Promise<void>((resolve) => intake.listen(0, '127.0.0.1', resolve));
      target = `http://127.0.0.1:${(intake.address() as AddressInfo).port}`;
      subscriptionsOf = new toolsteps.TriggerSubscriptions({
        triggers: registry,
        runtime,
        subscriptions,
        entitlements: { plan: 'enterprise' },
      });
    });

    afterAll(() => new Promise<void>((resolve) => (intake ? intake.close(() => resolve()) : resolve())));

    it('provisions a webhook with its secret, is delivered a signed event, refuses a badly signed one, and deletes the webhook on removal', async () => {
      const { provider } = example;
      const subscription = await subscriptionsOf.create({
        trigger: 'notes.note_created',
        connection: 'acme',
        target,
        setup: { notebooks: ['nb_ideas'] },
      });
      expect(subscription.state).toBe('ready');
      expect(subscription.secret).toEqual(expect.any(String));
      const [webhook] = provider.webhooks();
      expect(webhook).toEqual({
        id: subscription.provider.webhook_id,
        url: `${target}/hooks/${subscription.id}`,
        events: ['note.created'],
      });

      await provider.delivered();
      const before = (await provider.delivered()).length;
      await invoke('notes.create_note', { notebook: 'nb_ideas', title: 'An idea', body: 'Signed.' });
      const deliveries = (await provider.delivered()).slice(before);
      expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
      expect(started).toHaveLength(1);
      expect(started[0]?.variables).toMatchObject({
        title: 'An idea',
        body: 'Signed.',
        notebook: 'nb_ideas',
      });

      const forged = await fetch(webhook?.url ?? '', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-notes-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
        },
        body: JSON.stringify({ id: 'evt_forged', type: 'note.created' }),
      });
      expect(forged.status).toBe(401);
      expect(started).toHaveLength(1);

      const removal = await subscriptionsOf.remove(subscription.id);
      expect(removal).toMatchObject({
        provider: 'removed',
        items: [{ kind: 'webhook', id: webhook?.id, outcome: 'removed' }],
      });
      expect(provider.webhooks()).toEqual([]);
    });
  });

  it('lists its steps as MCP tools, and the choices of a field (toolsteps/mcp over HTTP)', async () => {
    const { mcp, registry, runtime } = example;
    const server = await mcp.serveMcpHttp({ registry, runtime, mode: 'flat', watchIntervalMs: 0 });
    const client = new Client({ name: 'outside-integration-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'list_options',
        'notes__api_call',
        'notes__create_note',
        'notes__delete_note',
        'notes__get_note',
        'notes__list_notes',
      ]);
      const remove = tools.find((tool) => tool.name === 'notes__delete_note');
      expect(remove?.annotations).toMatchObject({ destructiveHint: true });
      // The notebook's choices: marked in the tool's schema, and listed from the account by list_options.
      const create = tools.find((tool) => tool.name === 'notes__create_note');
      expect(create?.inputSchema.properties?.notebook).toHaveProperty(['x-toolsteps-options']);
      const listed = await client.callTool({
        name: 'list_options',
        arguments: { step: 'notes__create_note', field: 'notebook', query: 'home' },
      });
      expect(JSON.stringify(listed.structuredContent ?? listed.content)).toContain('nb_home');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_PACKAGES } from '../../cli/telemetry/telemetry-settings.js';
import { type DocExample, docExamples, exampleFolder } from '../support/doc-examples.js';
import { packedPackage } from '../support/packed-package.js';
import { compileProject, strictProject, writeExamples } from '../support/strict-typescript.js';

const run = promisify(execFile);
const repo = process.cwd();
const OPTIONAL_PEERS = [
  'ioredis',
  'bullmq',
  'pg',
  'ai',
  '@modelcontextprotocol/sdk',
  '@openai/agents',
  '@langchain/core',
  '@mastra/core',
  '@opentelemetry/api',
  // The SDK the CLI's serving commands start (cli/telemetry/), each an optional peer too.
  ...Object.keys(SDK_PACKAGES),
];
const ENTRIES = [
  'toolsteps',
  'toolsteps/agents',
  'toolsteps/mcp',
  'toolsteps/eval',
  'toolsteps/kit',
  'toolsteps/steps',
  'toolsteps/sandbox',
];

/**
 * What the tarball may hold: the built library, its declarations, the CLI's
 * two bundles and the catalogue. Not the docs: they are read in the
 * repository, and were a ninth of the packed size (docs/library.md).
 */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^manifest\.json$/,
  // The builder API's OpenAPI document (toolsteps/builder-openapi.json).
  /^builder-openapi\.json$/,
  // The JSON Schema of evaluation scenario files (toolsteps/eval-scenario.schema.json).
  /^eval-scenario\.schema\.json$/,
  /^dist\/lib\/(chunks\/)?[\w-]+\.js$/,
  /^dist\/types\/(src|steps|sandbox|ui)\/[\w/-]+\.d\.ts$/,
  /^dist\/cli\/toolsteps(-commands)?\.cjs$/,
  // The UI kit for browsers (toolsteps/ui) and the reference page `toolsteps ui` serves.
  /^dist\/ui\/(toolsteps-ui|react|page)\.js$/,
  /^dist\/ui\/(index\.html|page\.css)$/,
];

/**
 * zod is a required peer (the library and the user's schemas must be one
 * copy), so the project below installs it beside toolsteps as the README
 * says, at the lowest version package.json declares: every check of this
 * file then holds for the oldest zod a user may have.
 */
const ZOD_FLOOR = (() => {
  const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const floor = /^\^(4\.\d+\.\d+)$/.exec(manifest.peerDependencies.zod ?? '')?.[1];
  if (!floor) throw new Error(`peerDependencies.zod should be ^4.x.y, not ${manifest.peerDependencies.zod}`);
  return floor;
})();

/**
 * A TypeScript project of someone who installed toolsteps, its one required
 * peer (zod, at the lowest version declared) and none of its optional peers:
 * outside the repository (so nothing resolves from our own node_modules),
 * checking every library file it reaches (`skipLibCheck: false`), with
 * Node's types and no DOM.
 */
describe('the published type declarations, in a project with the lowest zod declared and no optional peer', () => {
  let temp: string;
  let consumer: string;
  let tarball: string;
  let packed: string[];
  let installLog: string;

  beforeAll(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-consumer-'));
    // Packed once per content of the sources, for this file and the outside integration's.
    tarball = await packedPackage();
    packed = (await run('tar', ['-tzf', tarball])).stdout
      .trim()
      .split('\n')
      .map((entry) => entry.replace(/^package\//, ''));
    consumer = path.join(temp, 'consumer');
    await mkdir(consumer);
    await writeFile(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    // The dependencies come from npm's cache when it has them, from the registry otherwise.
    // Scripts are not ignored: installing the package must run none and npm must not warn of any.
    const installed = await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `zod@${ZOD_FLOOR}`],
      { cwd: consumer },
    );
    installLog = `${installed.stdout}\n${installed.stderr}`;
  }, 600_000);

  afterAll(async () => {
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  it('packs only built code, declarations and the catalogue: no sources, no maps, no docs', () => {
    const outside = packed.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
    expect(outside).toEqual([]);
    expect(packed).toContain('dist/lib/index.js');
    expect(packed).toContain('dist/cli/toolsteps.cjs');
    expect(packed).toEqual(expect.arrayContaining(['dist/ui/toolsteps-ui.js', 'dist/ui/index.html']));
  });

  it('publishes a manifest without install scripts, so installing runs nothing and npm warns of nothing', async () => {
    const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as {
      scripts: Record<string, string>;
    };
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(manifest.scripts[script], script).toBeUndefined();
    }
    expect(installLog).not.toMatch(/install-scripts|toolsteps@[^\s]+ \(/);
  });

  it('installs without any optional peer, sharing the project’s zod rather than a copy of its own', async () => {
    expect(existsSync(path.join(consumer, 'node_modules/toolsteps/dist/types/src/index.d.ts'))).toBe(true);
    for (const peer of OPTIONAL_PEERS) {
      expect(existsSync(path.join(consumer, 'node_modules', peer)), peer).toBe(false);
    }
    const zod = JSON.parse(await readFile(path.join(consumer, 'node_modules/zod/package.json'), 'utf8'));
    expect(zod.version).toBe(ZOD_FLOOR);
    // A dependency would install a second zod under toolsteps whenever the project's is older.
    expect(existsSync(path.join(consumer, 'node_modules/toolsteps/node_modules/zod'))).toBe(false);
    const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout);
    expect(manifest.dependencies.zod).toBeUndefined();
    expect(manifest.peerDependencies.zod).toBe(`^${ZOD_FLOOR}`);
    expect(manifest.peerDependenciesMeta.zod).toBeUndefined();
  });

  /**
   * consumer.ts, importing every entry, and the docs examples that need no
   * peer (under examples/), compiled by one tsc with skipLibCheck off: the
   * two checks read the same declarations (toolsteps', zod's, Node's), which
   * is most of the work, so one program checks them once for both. Each
   * test below reads the diagnostics of its own files and of the libraries.
   */
  let compiled: Promise<{ report: string; examples: DocExample[] }> | undefined;
  function compileConsumerAndExamples() {
    compiled ??= (async () => {
      const imports = ENTRIES.map((entry, index) => `import * as entry${index} from '${entry}';`);
      await writeFile(
        path.join(consumer, 'consumer.ts'),
        [
          ...imports,
          `export const entries = [${ENTRIES.map((_, index) => `entry${index}`).join(', ')}];`,
          'export type AiTools = Awaited<ReturnType<typeof entry1.toAiSdkTools>>;',
          'export type AgentsSdkTools = Awaited<ReturnType<typeof entry1.openaiAgentsTools>>;',
          'export type LangChainTools = Awaited<ReturnType<typeof entry1.langchainTools>>;',
          'export type MastraTools = Awaited<ReturnType<typeof entry1.mastraTools>>;',
          'export type HttpOptions = Parameters<typeof entry2.serveMcpHttp>[0];',
          '',
        ].join('\n'),
      );
      const own = /^(toolsteps(\/.*)?|node:.*|zod)$/;
      const examples = docExamples(repo).filter((example) =>
        example.packages.every((name) => own.test(name)),
      );
      await writeExamples(path.join(consumer, 'examples'), examples);
      const project = strictProject({
        compilerOptions: { skipLibCheck: false, outDir: 'built', rootDir: '.' },
        files: ['consumer.ts'],
        include: ['examples/**/*.ts'],
      });
      return { report: await compileProject(consumer, project), examples };
    })();
    return compiled;
  }

  /**
   * tsc's report as its diagnostics (a first line and the indented lines
   * after it), less those about `other` files: a library's or the
   * settings' diagnostics stay in every test's part.
   */
  const diagnosticsBut = (report: string, other: string) => {
    const all: string[] = [];
    for (const line of report.split('\n')) {
      if (!line.trim()) continue;
      if (/^\s/.test(line) && all.length) all[all.length - 1] += `\n${line}`;
      else all.push(line);
    }
    return all.filter((diagnostic) => !diagnostic.split('\n')[0]?.includes(other));
  };

  it('type-check strictly with skipLibCheck false, NodeNext, and no peer', async () => {
    const { report } = await compileConsumerAndExamples();
    expect(diagnosticsBut(report, 'consumer/examples/')).toEqual([]);
  }, 300_000);

  it('runs its CLI from the installed bin', async () => {
    const bin = path.join(consumer, 'node_modules/.bin/toolsteps');
    const { stdout } = await run(bin, ['search', 'zendesk'], { cwd: consumer });
    expect(stdout).toContain('ticketing.create_ticket');
  });

  it('evaluates a scenario and signs a token from the installed bin, with the library’s sandbox and the installed yaml and jose', async () => {
    const bin = path.join(consumer, 'node_modules/.bin/toolsteps');
    const env = { ...process.env, TOOLSTEPS_HOME: path.join(temp, 'cli-home') };
    const scenario = path.join(repo, 'docs/examples/eval/scenarios/triage-ticket.yaml');
    const agent = path.join(repo, 'docs/examples/eval/agents/triage-pass.yaml');
    const out = path.join(temp, 'eval-report');
    const evaluated = await run(bin, ['eval', scenario, '--agent', agent, '--out', out], {
      cwd: consumer,
      env,
    });
    expect(evaluated.stdout).toContain('PASS triage-ticket: 1/1 run(s) passed');
    const token = await run(bin, ['--tenant', 'acme', 'tokens', 'create', '--scope', 'mcp'], {
      cwd: consumer,
      env: { ...env, TOOLSTEPS_TOKEN_KEY: 'published-package-token-key-0123456789ab' },
    });
    expect(token.stdout).toMatch(/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{43}\n$/);
  }, 120_000);

  it('compiles the docs examples that need no peer with skipLibCheck off, and runs the sandbox one', async () => {
    const { report, examples } = await compileConsumerAndExamples();
    expect(examples.map((example) => example.page)).toContain('docs/sandbox.md');
    expect(diagnosticsBut(report, 'consumer/consumer.ts(')).toEqual([]);
    // docs/sandbox.md's first example: the library against an in-process sandbox, end to end.
    const sandboxExample = examples.find((example) => example.page === 'docs/sandbox.md') as DocExample;
    const script = path.join(
      consumer,
      'built/examples',
      exampleFolder(sandboxExample),
      sandboxExample.file.replace(/\.ts$/, '.js'),
    );
    await expect(run(process.execPath, [script], { cwd: consumer, timeout: 60_000 })).resolves.toBeDefined();
  }, 300_000);

  it('import at run time without any peer', async () => {
    const script = `for (const entry of ${JSON.stringify(ENTRIES)}) await import(entry);`;
    await expect(
      run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer }),
    ).resolves.toBeDefined();
  });

  it('has, at the lowest zod declared, what the library calls beyond the types: z.fromJSONSchema (zod 4.1 has none)', async () => {
    // The Mastra export builds its tools' schemas with it; its peer is not installed here to try it.
    const script = "import * as z from 'zod'; if (typeof z.fromJSONSchema !== 'function') process.exit(1);";
    await expect(
      run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer }),
    ).resolves.toBeDefined();
  });
});

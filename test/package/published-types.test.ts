import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = process.cwd();
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
const OPTIONAL_PEERS = ['ioredis', 'bullmq', 'ai', '@modelcontextprotocol/sdk'];
const ENTRIES = [
  'toolsteps',
  'toolsteps/agents',
  'toolsteps/mcp',
  'toolsteps/kit',
  'toolsteps/steps',
  'toolsteps/sandbox',
];

/**
 * The package as `npm pack` makes it from the current sources: compiled
 * afresh (incrementally, so a second run is quick) into a staging folder
 * beside package.json, never into the dist/ other tests run, and packed
 * there without running `prepare`.
 */
async function packCurrentSources(destination: string): Promise<string> {
  const stage = path.join(repo, 'node_modules/.cache/published-types');
  await mkdir(stage, { recursive: true });
  await run(process.execPath, [
    tsc,
    '-p',
    'tsconfig.build.json',
    '--outDir',
    path.join(stage, 'dist'),
    '--incremental',
    '--tsBuildInfoFile',
    path.join(stage, 'build.tsbuildinfo'),
    '--sourceMap',
    'false',
    '--declarationMap',
    'false',
    '--inlineSources',
    'false',
  ]);
  for (const file of ['package.json', 'LICENSE', 'README.md', 'manifest.json']) {
    await copyFile(path.join(repo, file), path.join(stage, file));
  }
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination],
    {
      cwd: stage,
    },
  );
  return path.join(destination, stdout.trim().split('\n').at(-1) as string);
}

/**
 * A TypeScript project of someone who installed toolsteps and none of its
 * optional peers: outside the repository (so nothing resolves from our own
 * node_modules), checking every library file it reaches (`skipLibCheck:
 * false`), with Node's types and no DOM.
 */
describe('the published type declarations, in a project without any optional peer', () => {
  let temp: string;
  let consumer: string;

  beforeAll(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-consumer-'));
    const tarball = await packCurrentSources(temp);
    consumer = path.join(temp, 'consumer');
    await mkdir(consumer);
    await writeFile(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    // The dependencies come from npm's cache when it has them, from the registry otherwise.
    await run(
      'npm',
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball],
      { cwd: consumer },
    );
  }, 600_000);

  afterAll(async () => {
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  it('installs without any optional peer', async () => {
    expect(existsSync(path.join(consumer, 'node_modules/toolsteps/dist/src/index.d.ts'))).toBe(true);
    for (const peer of OPTIONAL_PEERS) {
      expect(existsSync(path.join(consumer, 'node_modules', peer)), peer).toBe(false);
    }
    expect(await readdir(path.join(consumer, 'node_modules'))).toContain('zod');
  });

  it('type-check strictly with skipLibCheck false, NodeNext, and no peer', async () => {
    const imports = ENTRIES.map((entry, index) => `import * as entry${index} from '${entry}';`);
    await writeFile(
      path.join(consumer, 'consumer.ts'),
      [
        ...imports,
        `export const entries = [${ENTRIES.map((_, index) => `entry${index}`).join(', ')}];`,
        'export type AiTools = Awaited<ReturnType<typeof entry1.toAiSdkTools>>;',
        'export type HttpOptions = Parameters<typeof entry2.serveMcpHttp>[0];',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022'],
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(repo, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('');
  }, 300_000);

  it('import at run time without any peer', async () => {
    const script = `for (const entry of ${JSON.stringify(ENTRIES)}) await import(entry);`;
    await expect(
      run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer }),
    ).resolves.toBeDefined();
  });
});

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTokenFile, readTokenFile } from '../../../src/mcp/transports/token-file.js';
import { cli, jsonError, useCliHome } from '../../cli/cli-harness.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';
import { CHILD_START_MS, useMcpWorld } from './mcp-child.js';
import { connectHttp, serveFlat } from './mcp-http-fixture.js';

const TOKEN = 'a-token-only-its-owner-may-read-5d1e';
const isRoot = process.getuid?.() === 0;

const connect = connectHttp;

describe('a token file', () => {
  let folder: string;
  const file = (name: string) => path.join(folder, name);

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-token-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function tokenFile(name: string, mode: number): Promise<string> {
    await writeFile(file(name), `${TOKEN}\n`, { mode });
    await chmod(file(name), mode);
    return file(name);
  }

  it('is read when only its owner can reach it', async () => {
    const good = await tokenFile('good', 0o600);
    expect(await readTokenFile(good)).toBe(TOKEN);
    expect(await readTokenFile(await tokenFile('owner-only-read', 0o400))).toBe(TOKEN);
  });

  it('is refused, never echoed, when group or others can read or write it', async () => {
    for (const mode of [0o644, 0o640, 0o604, 0o620]) {
      const open = await tokenFile(`open-${mode.toString(8)}`, mode);
      const refusal = await readTokenFile(open).catch((error: Error & { code?: string }) => error);
      expect(refusal).toMatchObject({ code: 'input_invalid' });
      expect((refusal as Error).message).toContain('open to others');
      expect((refusal as Error).message).toContain(open);
      expect((refusal as Error).message).not.toContain(TOKEN);
    }
  });

  it.skipIf(!isRoot)('is refused when it belongs to another user, even at mode 0600', async () => {
    const theirs = await tokenFile('theirs', 0o600);
    await chown(theirs, 65534, 65534);
    await expect(readTokenFile(theirs)).rejects.toThrow(/belongs to another user/);
  });

  it('is refused, without hanging, when a FIFO or a folder stands at the path', async () => {
    const fifo = file('fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    await expect(readTokenFile(fifo)).rejects.toThrow(/not a regular file/);
    await expect(readTokenFile(folder)).rejects.toThrow(/not a regular file/);
    await writeFile(file('empty'), '\n', { mode: 0o600 });
    await expect(readTokenFile(file('empty'))).rejects.toThrow(/is empty/);
  });

  it('is made once with mode 0600 and kept across restarts', async () => {
    const made = await ensureTokenFile(file('nested/mcp-token'));
    expect(made.created).toBe(true);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(file('nested/mcp-token'))).mode & 0o777).toBe(0o600);
    expect(await ensureTokenFile(file('nested/mcp-token'))).toEqual({ token: made.token, created: false });
    await chmod(file('nested/mcp-token'), 0o644);
    await expect(ensureTokenFile(file('nested/mcp-token'))).rejects.toThrow(/open to others/);
  });

  it("guards a server: the file's token gets in, no token and another token do not", async () => {
    const fixture = await ticketingFixture();
    const server = await serveFlat(fixture, { token: await readTokenFile(await tokenFile('served', 0o600)) });
    try {
      const client = await connect(server.url, TOKEN);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      await expect(connect(server.url)).rejects.toThrow();
      await expect(connect(server.url, `${TOKEN}x`)).rejects.toThrow();
    } finally {
      await server.close();
      await fixture.close();
    }
  });
});

describe('toolsteps mcp --http and its token', () => {
  const home = useCliHome('toolsteps-mcp-token-', { scope: 'all' });

  it('refuses a --token-file others can read (exit 2), naming the file, never the token', async () => {
    const open = path.join(home(), 'open-token');
    await writeFile(open, TOKEN, { mode: 0o644 });
    await chmod(open, 0o644);
    const result = await cli('--json', 'mcp', '--http', '--port', '0', '--token-file', open);
    expect(result.code).toBe(2);
    expect(jsonError(result)).toMatchObject({ code: 'input_invalid' });
    expect(jsonError(result).message).toContain(open);
    expect(result.out + result.err).not.toContain(TOKEN);
  });

  it('refuses two sources of token at once', async () => {
    const result = await cli('--json', 'mcp', '--http', '--token-file', 'x', '--no-token');
    expect(result.code).toBe(2);
    expect(jsonError(result).message).toContain('--token-file and --no-token');
  });

  it('names --token-file when a host beyond loopback has no token', async () => {
    const result = await cli('--json', 'mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--no-token');
    expect(result.code).toBe(2);
    expect(jsonError(result).message).toContain('--token-file');
  });
});

describe('toolsteps mcp --http on loopback with no token given, as a child process', () => {
  const world = useMcpWorld('toolsteps-mcp-token');
  let child: ChildProcess;
  let stderr = '';
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [world.cliMain, 'mcp', '--http', '--port', '0'], {
      env: { ...process.env, TOOLSTEPS_HOME: world.home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', () => {
        const found = /MCP server at (\S+)/.exec(stderr);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  }, CHILD_START_MS);

  afterAll(async () => {
    child?.kill('SIGTERM');
  });

  it('makes $TOOLSTEPS_HOME/mcp-token (0600), prints its path and never the token', async () => {
    const file = path.join(world.home, 'mcp-token');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = (await readFile(file, 'utf8')).trim();
    expect(stderr).toContain(file);
    expect(stderr).not.toContain(token);
  });

  it('lets in a client with the token and no other', async () => {
    const token = (await readFile(path.join(world.home, 'mcp-token'), 'utf8')).trim();
    const client = await connect(url, token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ticketing__create_ticket');
    await client.close();
    await expect(connect(url)).rejects.toThrow();
  });
});

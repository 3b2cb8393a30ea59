import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Sandbox, startSandbox } from '../../../sandbox/index.js';
import type { Connection } from '../../../src/model/connection.js';
import { FileConnectionStore } from '../../../src/store/files/file-connection-store.js';
import { bundleForChild } from '../../support/bundle-for-child.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingOAuthConnection } from '../../support/ticketing-oauth-connection.js';

/** What a tool call answers, as the MCP client returns it. */
export interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Calls one tool and reads its answer as text blocks (and structured content, when the tool gives it). */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<TextResult> {
  return (await client.callTool({ name, arguments: args })) as TextResult;
}

/** The error JSON an error result carries on its last text line. */
export function errorOf(result: TextResult): Record<string, unknown> {
  const text = result.content.map((block) => block.text).join('\n');
  return (JSON.parse(text.slice(text.lastIndexOf('\n{') + 1)) as { error: Record<string, unknown> }).error;
}

/**
 * How long compiling the CLI and starting it in a child may take: loading
 * every module cold is slow on a busy 2-core machine.
 */
export const CHILD_START_MS = 90_000;

/** A sandbox, a TOOLSTEPS_HOME holding one ticketing connection to it, and the CLI compiled for a child process. */
export interface McpWorld {
  sandbox: Sandbox;
  home: string;
  store: FileConnectionStore;
  connection: Connection;
  /** Every secret the connection holds: none may reach a client. */
  secrets: string[];
  cliMain: string;
  close(): Promise<void>;
}

export function ticketingConnection(sandbox: Sandbox, id: string, label: string): Connection {
  return ticketingOAuthConnection(sandbox, id, { label });
}

export async function mcpWorld(cache: string): Promise<McpWorld> {
  const sandbox = await startSandbox();
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-mcp-'));
  const store = new FileConnectionStore(home);
  const connection = ticketingConnection(sandbox, 'tickets-main', 'Acme support');
  await store.put(connection);
  // The CLI as the package ships it: one bundle, with the MCP SDK (a peer) loaded from outside it.
  const { main } = await bundleForChild(cache);
  return {
    sandbox,
    home,
    store,
    connection,
    secrets: Object.values(connection.secrets) as string[],
    cliMain: main,
    close: async () => {
      await sandbox.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * `mcpWorld(cache)` for the tests of the enclosing describe (or file):
 * opened before them, with CHILD_START_MS to compile the CLI, and closed
 * after. Read its fields inside hooks and tests.
 */
export function useMcpWorld(cache: string): McpWorld {
  return useFixture(() => mcpWorld(cache), 'all', CHILD_START_MS);
}

/** The official MCP client, connected over stdio to `toolsteps mcp <args>` in a child process. */
export async function connectStdio(
  world: McpWorld,
  args: string[],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [world.cliMain, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), TOOLSTEPS_HOME: world.home },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'toolsteps-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

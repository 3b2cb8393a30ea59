import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_PACKAGES } from '../../cli/telemetry/telemetry-settings.js';

const OPTIONAL_PEERS = [
  '@modelcontextprotocol/sdk',
  'ai',
  '@openai/agents',
  '@langchain/core',
  '@mastra/core',
  '@opentelemetry/api',
  // The SDK the CLI's serving commands start (cli/telemetry/), each an optional peer too.
  ...Object.keys(SDK_PACKAGES),
];

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('optional peer dependencies', () => {
  it('are never imported statically by src/: only type imports and dynamic import() when used', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles('src')) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/^(import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
        const specifier = match[2] as string;
        if (OPTIONAL_PEERS.some((peer) => specifier === peer || specifier.startsWith(`${peer}/`))) {
          offenders.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('are declared optional peers, and dev dependencies for the tests', async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8'));
    for (const peer of OPTIONAL_PEERS) {
      expect(manifest.peerDependencies[peer]).toBeDefined();
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
      expect(manifest.devDependencies[peer]).toBeDefined();
      expect(manifest.dependencies[peer]).toBeUndefined();
    }
  });

  it('the CLI loads the MCP server module only inside the mcp command', async () => {
    const command = await readFile('cli/commands/mcp-command.ts', 'utf8');
    expect(command).not.toMatch(/^import[^;]*agents\/mcp/m);
    expect(command).toContain("await import('../../src/mcp/transports/serve-mcp.js')");
  });
});

import { type McpHttpServeOptions, serveMcpHttp } from '../../../src/agents/mcp/serve-mcp.js';
import type { SandboxFixture } from '../../support/sandbox-fixture.js';

/**
 * The MCP HTTP server over a fixture's catalogue and runtime as these tests
 * run it: one tool per step, and no watching of the connection store.
 * `options` add to that (a token, a clock, session limits).
 */
export function serveFlat(
  fixture: Pick<SandboxFixture, 'registry' | 'runtime'>,
  options: Partial<McpHttpServeOptions> = {},
) {
  return serveMcpHttp({
    registry: fixture.registry,
    runtime: fixture.runtime,
    mode: 'flat',
    watchIntervalMs: 0,
    ...options,
  });
}

/**
 * The MCP server side of the MCP figures, in a process of its own so its CPU
 * is all it counts: the steps served over stdio (this process's stdin and
 * stdout) and over Streamable HTTP at once, on one runtime with the `bench`
 * connection (memory store), one tool per step, no store watching; beside
 * them the HTTP row's baseline, a bare node:http server answering the same
 * JSON-RPC from a direct invoke (mcp-bare-server.mjs). The parent drives
 * them with MCP requests and, over the IPC channel, asks for this process's
 * CPU (`cpu`) or for `calls` direct invocations of the same step in this
 * process (`direct`), answering their CPU per call: the stdio row's
 * baseline, measured where the server runs (child-ipc.mjs). Under callgrind
 * (server-instructions.mjs), `mark` enters uv_os_getpriority, where the
 * count is split.
 *
 *   node mcp-server-child.mjs <build> <sandbox JSON> <max HTTP sessions>
 */
import { importBuilt } from './built-file.mjs';
import { answerParent } from './child-ipc.mjs';
import { startBareMcpServer } from './mcp-bare-server.mjs';
import { benchRuntime, loadClient } from './per-call.mjs';

const [build, sandboxJson, maxSessionsText] = process.argv.slice(2);
const sandbox = JSON.parse(sandboxJson);
const client = await loadClient(build);
// src/agents/mcp/ is where the baseline 2672ba1 had it (issue 35 moved it).
const { serveMcpStdio, serveMcpHttp } = await importBuilt(
  build,
  'src/mcp/transports/serve-mcp.js',
  'src/agents/mcp/serve-mcp.js',
);
const registry = client.createRegistry();
const runtime = benchRuntime(client, sandbox);
const served = { registry, runtime, mode: 'flat', watchIntervalMs: 0 };
await serveMcpStdio(served);
const http = await serveMcpHttp({ ...served, maxSessions: Number(maxSessionsText) });
const invokeDirect = (input) =>
  registry.invoke(runtime, 'ticketing.get_ticket_info', { connection: 'bench', input });
const bare = await startBareMcpServer(invokeDirect);

answerParent(invokeDirect, () => Promise.all([http.close(), bare.close()]), {
  url: http.url,
  bareUrl: bare.url,
});

/**
 * The stdio row's baseline, in a process of its own as the MCP server's
 * stdio is: JSON-RPC lines read from stdin and answered on stdout by hand,
 * with nothing of the MCP SDK, a `tools/call` from a direct invoke of the
 * step on the same runtime as the server child's (mcp-bare-server.mjs'
 * `bareAnswer`, the HTTP row's bare server's answer). The parent drives it
 * with the same lines it sends the server child, so what the MCP server
 * spends beyond it is its stdio transport and the SDK's protocol handling;
 * its CPU, marks and direct invokes as the server child's (child-ipc.mjs).
 *
 *   node mcp-bare-stdio-child.mjs <build> <sandbox JSON>
 */
import { answerParent } from './child-ipc.mjs';
import { bareAnswer } from './mcp-bare-server.mjs';
import { benchRuntime, loadClient } from './per-call.mjs';

const [build, sandboxJson] = process.argv.slice(2);
const client = await loadClient(build);
const registry = client.createRegistry();
const runtime = benchRuntime(client, JSON.parse(sandboxJson));
const invokeDirect = (input) =>
  registry.invoke(runtime, 'ticketing.get_ticket_info', { connection: 'bench', input });

const answer = async (message) => {
  if (message.id === undefined) return;
  process.stdout.write(`${JSON.stringify(await bareAnswer(message, invokeDirect))}\n`);
};
let held = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (held + chunk).split('\n');
  held = lines.pop();
  for (const line of lines) if (line) void answer(JSON.parse(line));
});

answerParent(invokeDirect, async () => {}, {});

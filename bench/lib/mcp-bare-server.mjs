import { createServer } from 'node:http';

/**
 * The Streamable HTTP row's baseline: a bare `node:http` server that answers
 * the same JSON-RPC messages the MCP server does, by hand, with nothing of
 * the MCP SDK, Fastify or the Host/Origin guard. An initialize gets a fixed
 * answer and a session id, a notification a 202, a GET a 405 (no listening
 * stream, which a client must accept), and a `tools/call` the result of a
 * direct `invoke` of `stepId` in the shape the MCP server gives it: a text
 * and the structured content. The SDK's own client drives it as it drives
 * the MCP server, so both parse the same requests and write the same
 * answer; what the MCP server spends beyond it is its transport and the
 * SDK's protocol handling.
 */
export async function startBareMcpServer(invoke) {
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(request.method === 'DELETE' ? 200 : 405, { allow: 'POST, DELETE' });
      return response.end();
    }
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) {
      response.writeHead(202);
      return response.end();
    }
    const text = JSON.stringify(await bareAnswer(message, invoke));
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'mcp-session-id': 'bare',
    });
    response.end(text);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * The answer to a JSON-RPC request `message`, by hand: a fixed initialize
 * result, or a `tools/call`'s from a direct `invoke`. The bare servers of
 * both transports' rows answer with it.
 */
export async function bareAnswer(message, invoke) {
  const result =
    message.method === 'tools/call'
      ? toolResult(await invoke(message.params.arguments))
      : initializeResult(message.params);
  return { result, jsonrpc: '2.0', id: message.id };
}

function initializeResult(params) {
  return {
    protocolVersion: params.protocolVersion,
    capabilities: { tools: { listChanged: true } },
    serverInfo: { name: 'bare', version: '0.0.0' },
  };
}

/** An invocation's result as the MCP server answers it: a line, the output as JSON, and the structured content. */
function toolResult(result) {
  const { meta, output, variables } = result;
  const head = `${meta.step} succeeded on connection ${meta.connection} (${meta.attempts} requests, ${meta.durationMs} ms).`;
  return {
    content: [{ type: 'text', text: `${head}\n${JSON.stringify({ output, variables })}` }],
    structuredContent: { ...result },
  };
}

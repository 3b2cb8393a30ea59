import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/mcp/load-mcp-sdk.js';
import { MAX_STDIO_LINE_BYTES, StdioMcpTransport } from '../../src/mcp/transports/stdio-mcp-transport.js';

/** The transport over streams of its own: what it delivers, what it reports, and whether it closed. */
async function transportOverStreams() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioMcpTransport(await loadMcpSdk(), input, output);
  const messages: unknown[] = [];
  const errors: string[] = [];
  let closed = false;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => {
    closed = true;
  };
  await transport.start();
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const chunk of chunks) input.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { transport, input, output, messages, errors, feed, closed: () => closed };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('the stdio transport', () => {
  it('reads every line wherever chunks cut them: two in one chunk, one across three, with CRLF', async () => {
    const { messages, errors, feed } = await transportOverStreams();
    await feed(`${ping(1)}\n${ping(2)}\n`);
    const third = `${ping(3)}\r\n`;
    await feed(third.slice(0, 5), third.slice(5, 20), third.slice(20));
    // A character of several bytes cut between chunks is joined before it is decoded.
    const accented = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'é' })}\n`);
    const cut = accented.indexOf(0xc3) + 1;
    await feed(accented.subarray(0, cut), accented.subarray(cut));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 'é' },
    ]);
    expect(errors).toEqual([]);
  });

  it('reports a line that is not JSON-RPC and goes on with the next', async () => {
    const { messages, errors, feed } = await transportOverStreams();
    await feed('not json\n{"jsonrpc":"2.0","id":1}\n', `${ping(5)}\n`);
    expect(errors).toHaveLength(2);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
  });

  it('writes each message as one line', async () => {
    const { transport, output } = await transportOverStreams();
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(String(output.read())).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  });

  it('closes on a line past the limit before its newline, as the SDK’s transport does', async () => {
    const { errors, feed, closed } = await transportOverStreams();
    await feed(
      Buffer.alloc(MAX_STDIO_LINE_BYTES / 2, 0x20),
      Buffer.alloc(MAX_STDIO_LINE_BYTES / 2 + 1, 0x20),
    );
    expect(errors).toEqual([`A message is at most ${MAX_STDIO_LINE_BYTES} bytes`]);
    expect(closed()).toBe(true);
  });

  it('hands a request to the protocol’s own routine once handed over; other messages go through onmessage', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const sdk = await loadMcpSdk();
    const transport = new StdioMcpTransport(sdk, input, output);
    const server = new sdk.Server({ name: 'routine', version: '1' }, { capabilities: {} });
    await server.connect(transport);
    transport.handOver(server);
    const classified: unknown[] = [];
    const protocolOnMessage = transport.onmessage;
    transport.onmessage = (message) => {
      classified.push(message);
      protocolOnMessage?.(message);
    };
    const written: string[] = [];
    output.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    input.write(`${ping(1)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.join('')).toBe(`${JSON.stringify({ result: {}, jsonrpc: '2.0', id: 1 })}\n`);
    expect(classified).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    await server.close();
  });
});

import { connect, createServer } from 'node:net';

/** A loopback port nothing listens on right now, for a server a test starts itself. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits for the port to accept a connection, sending nothing the listener would log. */
export async function untilListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nothing listens on port ${port}`);
}

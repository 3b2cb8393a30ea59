import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a server a test must not stop (the
 * machine's Postgres, shared by every checkout running tests): `stop` is the
 * server going away (every connection cut, the port refusing), `silence`
 * is a server that accepts and never answers, `start` brings it back on the
 * same port.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private silent = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  }

  private pipe(client: Socket): void {
    this.track(client);
    if (this.silent) return; // held open, read from, never answered
    const upstream = this.track(connect(this.targetPort, this.targetHost));
    client.on('data', (chunk) => {
      if (!this.silent) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.silent) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  async start(): Promise<void> {
    this.silent = false;
    const server = createServer((socket) => this.pipe(socket));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Every connection cut and the port closed, as when the server stops. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** From now on nothing passes either way, on open connections and new ones alike. */
  silence(): void {
    this.silent = true;
  }
}

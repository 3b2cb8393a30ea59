import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The agent platform events are forwarded to: it records what arrived and what it answered 2xx. */
export class AgentPlatform {
  readonly server: Server;
  readonly arrived: string[] = [];
  readonly completed: string[] = [];
  /** Runs before answering; answering waits for it. `hold` never answers. */
  onArrival: (eventId: string) => Promise<'answer' | 'hold' | 'fail'> = async () => 'answer';
  private readonly held: ServerResponse[] = [];

  constructor() {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', async () => {
        const eventId = (JSON.parse(body) as { event_id: string }).event_id;
        this.arrived.push(eventId);
        const what = await this.onArrival(eventId);
        if (what === 'hold') {
          this.held.push(response);
          return;
        }
        if (what === 'fail') {
          response.writeHead(500).end();
          return;
        }
        this.completed.push(eventId);
        response.writeHead(204).end();
      });
    });
  }

  async url(pathAndQuery = '/run'): Promise<string> {
    if (!this.server.listening)
      await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${pathAndQuery}`;
  }

  async close(): Promise<void> {
    for (const response of this.held.splice(0)) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  runs(eventId: string): number {
    return this.completed.filter((id) => id === eventId).length;
  }
}

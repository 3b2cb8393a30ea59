import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup } from './address-group.js';

/** How many connections a server holds at once, in all and from one address (an IPv6 /64). */
export interface ConnectionCaps {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

interface Held {
  group: string;
  /** Requests read and not yet answered: while any is, the connection is doing work and is never shed. */
  answering: number;
}

/**
 * Holds a server to `caps` without letting idle callers lock others out.
 * A plain cap (`server.maxConnections`) refuses the newest connection, so
 * whoever opens connections first and sends nothing keeps everyone else
 * out until its timeouts run; and a per-address limit cannot tell an
 * attacker on loopback from the page, the tests or a TLS proxy there.
 * Here a connection past a cap takes the place of the oldest connection
 * (of its address, then of all) that is answering no request: one still
 * sending its headers, or idle between requests, or with a refused
 * request's body still trickling in. A flood of such connections only
 * displaces itself, while a request that arrives whole is answered. Only
 * when every held connection is answering is the new one closed unread.
 */
export class ConnectionGuard {
  /** Every connection held, oldest first (a Map keeps insertion order). */
  private readonly held = new Map<Socket, Held>();
  private readonly byGroup = new Map<string, Set<Socket>>();

  constructor(private readonly caps: ConnectionCaps) {}

  /** Starts guarding `server`'s connections; call before it listens. */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
    server.on('request', (request, response) => {
      const held = this.held.get(request.socket);
      if (!held) return;
      held.answering += 1;
      response.once('close', () => {
        held.answering -= 1;
      });
    });
  }

  /** Connections held now, for health checks and tests. */
  get size(): number {
    return this.held.size;
  }

  private admit(socket: Socket): void {
    const group = addressGroup(socket.remoteAddress);
    const own = this.byGroup.get(group) ?? new Set<Socket>();
    const room =
      (own.size < this.caps.maxConnectionsPerAddress || this.shedOldestIdle(own)) &&
      (this.held.size < this.caps.maxConnections || this.shedOldestIdle(this.held.keys()));
    if (!room || socket.destroyed) {
      socket.destroy();
      return;
    }
    own.add(socket);
    this.byGroup.set(group, own);
    this.held.set(socket, { group, answering: 0 });
    socket.once('close', () => this.forget(socket));
  }

  /** Closes the oldest of `sockets` that answers no request; false when every one is answering. */
  private shedOldestIdle(sockets: Iterable<Socket>): boolean {
    for (const socket of sockets) {
      if (this.held.get(socket)?.answering !== 0) continue;
      this.forget(socket);
      socket.destroy();
      return true;
    }
    return false;
  }

  private forget(socket: Socket): void {
    const held = this.held.get(socket);
    if (!held) return;
    this.held.delete(socket);
    const own = this.byGroup.get(held.group);
    own?.delete(socket);
    if (own && !own.size) this.byGroup.delete(held.group);
  }
}

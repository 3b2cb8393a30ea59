import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../src/model/clock.js';
import { HostOriginGuard } from '../src/server/host-origin-guard.js';
import { type ControlContext, controlRefusal, handleControl } from './control-endpoints.js';
import type { Emulator } from './emulator.js';
import type { FaultInjector } from './fault-injector.js';
import { json, type Reply, type SandboxRequest } from './sandbox-http.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import type { WebhookFaults } from './webhooks/webhook-faults.js';

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** A control body: JSON only; anything else reads as undefined and fails validation. */
function parseJson(raw: string): unknown {
  try {
    return raw === '' ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw === '') return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

async function readRaw(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function write(response: ServerResponse, reply: Reply): void {
  const headers = { ...reply.headers };
  let payload: string | Uint8Array | undefined;
  if (reply.body !== undefined && reply.body !== null) {
    if (reply.body instanceof Uint8Array) {
      // A file (an attachment's content), sent as its bytes.
      payload = reply.body;
      headers['content-type'] ??= 'application/octet-stream';
    } else if (typeof reply.body === 'string') {
      payload = reply.body;
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
  }
  response.writeHead(reply.status, headers);
  response.end(payload);
}

export interface SandboxServerOptions {
  host: string;
  port: number;
  emulators: Emulator[];
  faults: FaultInjector;
  /** Outgoing webhooks: reset with the emulators; their fault switches have a control endpoint. */
  webhooks?: WebhookDispatcher;
  webhookFaults?: WebhookFaults;
  /** The sandbox clock; `POST /_sandbox/clock` moves it when it is a manual clock. */
  clock?: Clock;
  /**
   * How many of the latest requests `requestLog` keeps (default 10,000; 0
   * keeps none). Entries hold request headers, credentials included, so a
   * long-running sandbox must not keep them all.
   */
  requestLogLimit?: number;
}

/** One request an emulator received, as the tests assert on it. */
export interface SandboxRequestLogEntry {
  mount: string;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`requestLogLimit must be an integer >= 0, got ${limit}.`);
  return limit;
}

/**
 * The loopback HTTP server every emulator hangs off. `/_sandbox/*` are
 * control endpoints (health, reset, faults) for scripts outside the process.
 */
export class SandboxServer {
  private readonly server: http.Server;
  private readonly emulators = new Map<string, Emulator>();
  private readonly hostOrigin: HostOriginGuard;
  /**
   * The latest requests the emulators received, oldest first, for assertions
   * that something (or nothing) was sent. A ring buffer over a plain array:
   * past `requestLogLimit` entries, the oldest are dropped from the front,
   * so `length`, `at(-1)` and `filter` keep working.
   */
  readonly requestLog: SandboxRequestLogEntry[] = [];
  private logLimit: number;
  /** The latest exceptions handlers threw, for a test or a debugger to read; never sent to a client. */
  readonly failures: unknown[] = [];

  constructor(private readonly options: SandboxServerOptions) {
    this.hostOrigin = new HostOriginGuard({
      boundHost: options.host,
      allowedOrigins: [],
      loopbackOrigins: true,
    });
    this.logLimit = checkedLimit(options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT);
    for (const emulator of options.emulators) this.emulators.set(emulator.mount, emulator);
    this.server = http.createServer((request, response) => {
      this.dispatch(request, response).catch((error: unknown) => {
        // The exception stays here: its text may hold a request's secrets or the sandbox's internals.
        this.failures.push(error);
        if (this.failures.length > 100) this.failures.shift();
        if (!response.headersSent)
          write(
            response,
            json(500, {
              error: 'sandbox_failure',
              message: 'The sandbox failed while handling this request.',
            }),
          );
        else response.destroy();
      });
    });
    this.server.keepAliveTimeout = 5_000;
  }

  get requestLogLimit(): number {
    return this.logLimit;
  }

  /** Changes how many requests are kept; a lower limit drops the oldest at once. */
  set requestLogLimit(limit: number) {
    this.logLimit = checkedLimit(limit);
    this.trimRequestLog();
  }

  private record(entry: SandboxRequestLogEntry): void {
    if (this.logLimit === 0) return;
    this.requestLog.push(entry);
    this.trimRequestLog();
  }

  private trimRequestLog(): void {
    const excess = this.requestLog.length - this.logLimit;
    if (excess > 0) this.requestLog.splice(0, excess);
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    return `http://${this.options.host}:${address.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // DNS rebinding: a page on a name that now resolves to this loopback
    // server is "same origin" to the browser, so it could send the control
    // header and JSON, or drive an emulator. The MCP server's rule refuses
    // any Host (or Origin) that is not loopback, before a byte is read.
    const verdict = this.hostOrigin.check(request.headers);
    if ('refused' in verdict) {
      response.setHeader('connection', 'close');
      const message = verdict.refused === 'host' ? 'Host not allowed.' : 'Origin not allowed.';
      return write(response, json(403, { error: 'not_loopback', message }));
    }
    const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
    const bytes = await readRaw(request);
    if (bytes === undefined) return write(response, json(413, { error: 'payload_too_large' }));
    const raw = bytes.toString('utf8');
    const [, mount = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const method = request.method ?? 'GET';

    if (mount === '_sandbox') {
      const refusal = controlRefusal(method, request.headers);
      if (refusal) return write(response, refusal);
      return write(response, await handleControl(this.controlContext(), method, path, parseJson(raw)));
    }
    const emulator = this.emulators.get(mount);
    if (!emulator)
      return write(response, json(404, { error: 'no_such_emulator', mounts: [...this.emulators.keys()] }));
    this.record({
      mount,
      method,
      path: `${path}${url.search}`,
      headers: request.headers,
      rawBody: raw,
    });

    const fault = this.options.faults.take(mount, method, path);
    if (fault?.kind === 'reset' && fault.when === 'before') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'status' && fault.when !== 'after') {
      return write(response, {
        status: fault.status,
        body: fault.body ?? { error: 'injected_fault' },
        headers: fault.headers ?? {},
      });
    }
    if (fault?.kind === 'delay') {
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      if (fault.dropIfAbandoned && request.socket.destroyed) return;
    }

    const reply = await emulator.handle({
      method,
      path,
      params: {},
      query: url.searchParams,
      headers: request.headers,
      body: parseBody(raw, request.headers['content-type']),
      rawBody: raw,
      rawBytes: bytes,
    } satisfies SandboxRequest);
    if (fault?.kind === 'reset' && fault.when === 'after') {
      // The emulator acted; the client never hears about it.
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'status' && fault.when === 'after') {
      // The emulator acted; the client hears a failure anyway (a gateway timing out, say).
      return write(response, {
        status: fault.status,
        body: fault.body ?? { error: 'injected_fault' },
        headers: fault.headers ?? {},
      });
    }
    write(response, reply ?? json(404, { error: 'not_found', path }));
  }

  private controlContext(): ControlContext {
    return {
      emulators: this.emulators,
      faults: this.options.faults,
      webhooks: this.options.webhooks,
      webhookFaults: this.options.webhookFaults,
      clock: this.options.clock,
    };
  }
}

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the hostile provider saw of one request. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A scripted answer: return true when it answered the request itself, false
 * to let the request through to the upstream (the honest sandbox).
 */
export type HostileScript = (request: SeenRequest, response: ServerResponse) => boolean | Promise<boolean>;

export interface HostileProvider {
  /** `http://127.0.0.1:<port>`: swap it for the sandbox's origin in a connection's baseUrl. */
  origin: string;
  requests: SeenRequest[];
  /** Replaces the script; requests it declines pass through to the upstream. */
  script(script: HostileScript): void;
  /** The connection base URL that reaches `upstreamBaseUrl` through this provider. */
  baseUrlFor(upstreamBaseUrl: string): string;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Sends a request on to the honest upstream as it came, less the hop-by-hop headers. */
export function fetchUpstream(upstream: string, seen: SeenRequest): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(seen.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return fetch(`${upstream}${seen.path}`, {
    method: seen.method,
    headers,
    body: seen.method === 'GET' || seen.method === 'HEAD' ? undefined : seen.body,
    redirect: 'manual',
  });
}

/** Passes a request through to the honest upstream, unchanged, and its answer back. */
async function passThrough(upstream: string, seen: SeenRequest, response: ServerResponse): Promise<void> {
  const answer = await fetchUpstream(upstream, seen);
  const body = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
  });
  response.writeHead(answer.status, out).end(body);
}

/**
 * A loopback HTTP server that stands between the steps and the sandbox and,
 * when scripted, answers the way a hostile provider (or a compromised proxy)
 * would: echoing secrets, trickling bytes, sending huge or deeply nested
 * bodies, redirecting where it should not, sending absurd headers. Anything
 * the script declines goes to the honest sandbox, so every step runs for real.
 */
export async function startHostileProvider(upstreamOrigin: string): Promise<HostileProvider> {
  let current: HostileScript = () => false;
  const requests: SeenRequest[] = [];
  const server = http.createServer(async (request, response) => {
    try {
      const seen: SeenRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        body: await readBody(request),
      };
      requests.push(seen);
      if (!(await current(seen, response))) await passThrough(upstreamOrigin, seen, response);
    } catch {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    script(script) {
      current = script;
    },
    baseUrlFor(upstreamBaseUrl) {
      return upstreamBaseUrl.replace(upstreamOrigin, origin);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `body` one byte every `everyMs`, after the headers: an idle timeout never fires. */
export function trickle(response: ServerResponse, status: number, body: string, everyMs: number): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  let index = 0;
  const timer = setInterval(() => {
    if (response.destroyed || index >= body.length) {
      clearInterval(timer);
      response.end();
      return;
    }
    response.write(body[index]);
    index++;
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

/** Answers with a JSON body. */
export function answerJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): true {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  return true;
}

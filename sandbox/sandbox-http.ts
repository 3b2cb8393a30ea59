import type { IncomingHttpHeaders } from 'node:http';

/** A request as an emulator sees it: parsed once by the server. */
export interface SandboxRequest {
  method: string;
  /** Path below the emulator's mount point, without the query. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON or form body; undefined when empty; the raw text when unparseable. */
  body: unknown;
  rawBody: string;
  /** The body's bytes as they came: a file upload is binary. */
  rawBytes?: Buffer;
}

/** What a handler answers. The server writes it, or a fault switch throws it away. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as text/plain unless a content-type is given. */
  body?: unknown;
}

/** Whether a parsed body, or a member of one, is a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request body's members, or undefined when the body is not a JSON object. */
export function objectBody(request: SandboxRequest): Record<string, unknown> | undefined {
  return isJsonObject(request.body) ? request.body : undefined;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, body, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } };
}

export function redirect(location: string): Reply {
  return { status: 302, headers: { location } };
}

/** Adds headers to a reply (rate-limit headers on every answer, for one). */
export function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return { ...reply, headers: { ...headers, ...reply.headers } };
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(value.trim());
  return match?.[1];
}

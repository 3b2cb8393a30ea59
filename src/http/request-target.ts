import type { IncomingMessage } from 'node:http';

/**
 * The URL of an incoming request, or undefined when its request line is no
 * URL at all (`GET //[ HTTP/1.1`): `new URL` throws on those, and a throw in
 * a server's request listener ends the process, so every server of ours
 * reads its target through here and answers 400 instead.
 */
export function requestTarget(request: IncomingMessage, base = 'http://localhost'): URL | undefined {
  try {
    return new URL(request.url ?? '/', base);
  } catch {
    return undefined;
  }
}

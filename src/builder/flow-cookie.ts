import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The proof that the browser coming back to the OAuth callback is the one
 * that started the sign-in. Without it, a member of one tenant could start a
 * sign-in and send the provider's consent link to someone else, whose
 * account would become the first tenant's connection when they allow it.
 *
 * The start of a flow answers a cookie of that flow only: a random key,
 * HttpOnly (no script reads it), SameSite=Lax (sent on the provider's
 * top-level redirect back, which Strict would not be, and never on a
 * cross-site subrequest), its Path the callback's alone, living as long as
 * the flow, Secure when the server is reached over https. The server keeps
 * only the key's SHA-256, so its memory holds nothing a browser could replay.
 * A link cannot carry a cookie to another browser: the person who receives
 * the consent link comes back without it, and the callback refuses.
 */
const COOKIE_PREFIX = 'toolsteps_signin_';

export interface FlowCookieScope {
  /** The callback's path: the only requests that carry the cookie. */
  path: string;
  /** Whether browsers reach the callback over https. */
  secure: boolean;
  maxAgeSeconds: number;
}

/** Where the cookie of a flow whose provider comes back to `redirectUri` is sent, and for how long. */
export function flowCookieScope(redirectUri: string, ttlMs: number): FlowCookieScope {
  const url = new URL(redirectUri);
  return { path: url.pathname, secure: url.protocol === 'https:', maxAgeSeconds: Math.ceil(ttlMs / 1000) };
}

const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

/** A fresh key for the starting browser, and the hash the server keeps instead. */
export function newBrowserKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('base64url');
  return { key, hash: digest(key) };
}

function attributes(scope: FlowCookieScope, maxAgeSeconds: number): string {
  return `Path=${scope.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${scope.secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` of the start answer: one cookie per flow, so two sign-ins under way never overwrite each other. */
export function flowCookie(flowId: string, key: string, scope: FlowCookieScope): string {
  return `${COOKIE_PREFIX}${flowId}=${key}; ${attributes(scope, scope.maxAgeSeconds)}`;
}

/** The `Set-Cookie` that forgets a flow's cookie once its callback has come. */
export function clearedFlowCookie(flowId: string, scope: FlowCookieScope): string {
  return `${COOKIE_PREFIX}${flowId}=; ${attributes(scope, 0)}`;
}

/** The key the browser sent for `flowId`, if it sent one. */
export function browserKeyOf(cookieHeader: string | undefined, flowId: string): string | undefined {
  const name = `${COOKIE_PREFIX}${flowId}`;
  for (const pair of (cookieHeader ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether `key` is the one whose hash the flow holds; compared in constant time. */
export function browserKeyMatches(key: string | undefined, hash: string): boolean {
  if (!key) return false;
  const sent = Buffer.from(digest(key));
  const held = Buffer.from(hash);
  return sent.length === held.length && timingSafeEqual(sent, held);
}

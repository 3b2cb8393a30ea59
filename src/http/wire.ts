import type { Cancellation } from './attempt-deadline.js';

/** One hop as the wire sees it: where, how, and what ends it early. */
export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  cancellation: Cancellation;
}

/** An answer off the wire before its body is read: what every wire hands to `attempt`. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  /**
   * Reads the whole body; past `limitBytes` it stops, drops the rest and
   * resolves `undefined`. Each wire reads its own body the cheapest way.
   */
  read(limitBytes: number): Promise<Uint8Array | undefined>;
  /** Drops the rest of the body unread (a redirect's, an oversized one's), freeing the socket. */
  discard(): Promise<void>;
}

/**
 * Sends one request, follows no redirect, and resolves once the status and
 * headers are in (the body is read by the caller). Three exist: straight on
 * an undici dispatcher (the default), through a `fetch` (an interceptor's, or
 * Node's own), and on node:http (short-lived processes, which should load no
 * undici at all).
 */
export type Wire = (request: WireRequest) => Promise<WireAnswer>;

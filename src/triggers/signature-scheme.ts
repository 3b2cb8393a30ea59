/** One delivery as it arrived: the raw bytes are what the provider signed, so nothing reads them first. */
export interface RawDelivery {
  headers: Headers;
  body: Uint8Array;
}

/**
 * How a provider signs its deliveries. It lives with the integration (each
 * provider has its own rule); the intake only calls it, so `src/` never
 * names a provider.
 */
export interface SignatureScheme {
  /** Short name for people and the manifest, e.g. `hmac-sha256-base64(timestamp+body)`. */
  name: string;
  /** The headers the scheme reads. */
  headers: readonly string[];
  /**
   * Whether the delivery carries a right signature for `secret`. Compares
   * with `crypto.timingSafeEqual`; a missing or malformed header is false.
   */
  verify(delivery: RawDelivery, secret: string): boolean;
  /**
   * When the provider signs a timestamp: the time it names (epoch ms), or
   * undefined when the header is missing or unreadable. Absent when the
   * provider signs none; the trigger's `eventTime` then reads the payload.
   */
  signedTime?(headers: Headers): number | undefined;
  /** How far a signed timestamp may be from our clock, either way. Default 5 minutes. */
  toleranceMs?: number;
}

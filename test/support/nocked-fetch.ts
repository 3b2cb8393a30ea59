/**
 * nock intercepts the global fetch, not undici's dispatcher: a runtime given
 * `transport: { fetch: nockedFetch }` (the global fetch, looked up per call)
 * sends its steps' requests where nock sees them.
 */
export const nockedFetch: typeof globalThis.fetch = (...args) => globalThis.fetch(...args);

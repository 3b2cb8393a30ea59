/**
 * nock intercepts the global fetch, not undici's dispatcher: a runtime given
 * this fetch (looked up per call) sends its steps' requests where nock sees them.
 */
export const nockedFetch: typeof globalThis.fetch = (...args) => globalThis.fetch(...args);

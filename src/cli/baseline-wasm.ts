import { setFlagsFromString } from 'node:v8';

/**
 * A one-shot command may read an HTTP answer or two through fetch (an OAuth
 * token refresh; its steps' requests go on node:http), whose parser is
 * undici's WebAssembly llhttp. V8 optimises that module in the background
 * after its first use, and the process waits for the job before it exits:
 * about 80 ms on the development machine, a fifth of a cold `run`, for code
 * that parses two answers. The baseline WebAssembly compiler is plenty for
 * that; serving commands (the MCP server, listen) keep the optimising one.
 * Set before the first request, which is when the module is compiled.
 */
export function keepWasmAtBaseline(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * A one-shot command may read an HTTP answer or two through fetch (an OAuth
 * token refresh; its steps' requests go on node:http), whose parser is
 * undici's WebAssembly llhttp. V8 optimises that module in the background
 * after its first use, and the process waits for the job before it exits, a
 * large share of a cold `run` for code that parses two answers. The baseline WebAssembly compiler is plenty for
 * that; serving commands (the MCP server, listen) keep the optimising one.
 *
 * Set by the bin before it loads the command tree: V8 refuses a code cache
 * made under other flags, so the flag must be the same when a one-shot
 * command's cache is read as when it was made (see command-tree.ts).
 * node:v8 is loaded here, not imported, so `--version` never pays for it.
 */
export function keepWasmAtBaseline(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}

/**
 * Commands that run until stopped: their start is paid once, they keep V8's
 * optimising compilers, and they start the OpenTelemetry SDK when the
 * `OTEL_*` variables ask for it. Apart from command-tree.ts, so the command
 * tree (program.ts) reads it without importing what loads the tree.
 */
export const SERVING_COMMANDS: ReadonlySet<string> = new Set([
  'sandbox',
  'listen',
  'worker',
  'mcp',
  'serve',
  'ui',
]);

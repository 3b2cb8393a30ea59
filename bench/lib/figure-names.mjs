/**
 * The names `--only` takes, one per group of rows the benchmark measures.
 * bench.mjs refuses any other name, and the suite's smoke test runs every
 * one of them (test/bench/bench-smoke.test.ts), so a group added here is
 * smoke-tested from the start.
 */
export const FIGURE_NAMES = [
  'per-call',
  'stores',
  'tenants',
  'mcp',
  'cold',
  'paging',
  'concurrency',
  'intake',
  'bulk',
  'package',
  'catalog',
  'ui',
  'builder',
  'fair-share',
  'framework',
  'import',
  'otel',
];

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FIGURE_NAMES } from '../../bench/lib/figure-names.mjs';
import { bundleForChild } from '../support/bundle-for-child.js';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * Every `--only` name of the benchmark, in two groups run side by side: the
 * figures wait much of their time (on their sandbox, servers and child
 * processes), so one run after the other was among the suite's longest
 * files. Two, not more: each run starts its own sandbox and loads the
 * client again, which more groups pay in CPU the rest of the suite needs
 * (docs/benchmarks.md). The figures that make Redis and Postgres data stay
 * in one group, one after the other, as in a whole run. Every name is in
 * exactly one group.
 */
const GROUPS = [
  ['cold', 'import', 'per-call', 'concurrency', 'catalog', 'builder', 'mcp', 'framework'],
  ['intake', 'tenants', 'stores', 'otel', 'package', 'ui', 'paging', 'bulk', 'fair-share'],
];

type Finished = { status: number | null; stdout: string; stderr: string };

/** `node bench/bench.mjs --smoke --build <build> --only ...` in a child; what it printed once it exits. */
function benchOf(build: string, names: string[]): Promise<Finished> {
  const child = spawn(
    process.execPath,
    ['bench/bench.mjs', '--smoke', '--build', build, ...names.flatMap((name) => ['--only', name])],
    { timeout: 420_000 },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * `npm run bench` with tiny sizes (`--smoke`) on freshly compiled sources,
 * so the benchmark cannot rot unnoticed. Its ratios and pass/FAIL are not
 * asserted: timings on a shared machine are not a test. Every figure of
 * issue 14 must be measured and have its row.
 */
describe('bench/bench.mjs --smoke', () => {
  it('runs every figure of the benchmark', () => {
    expect(GROUPS.flat().sort()).toEqual([...FIGURE_NAMES].sort());
  });

  it('measures every figure against its baseline and prints one table', async () => {
    const build = await transpileForChild(
      [
        'cli/main.ts',
        'src/index.ts',
        'src/runtime/runtime.ts',
        'src/store/memory/memory-connection-store.ts',
        'src/http/dispatcher-wire.ts',
        'src/model/clock.ts',
        'steps/index.ts',
        'sandbox/index.ts',
        'sandbox/ticketing/ticketing-seed.ts',
        // The rows of issue 26: every store, the MCP server, the intake's stores.
        'src/store/files/file-connection-store.ts',
        'src/store/sealed/secret-box.ts',
        'src/coordination/open-redis-stores.ts',
        'src/store/postgres/migrate.ts',
        'src/store/postgres/postgres-tenant-stores.ts',
        'src/peers/load-pg.ts',
        'src/mcp/transports/serve-mcp.ts',
        'src/store/files/file-subscription-store.ts',
        // Issue 26's tenants at scale (the stores' own sealing), the builder under load and the step form's render.
        'src/store/sealed/sealed-records.ts',
        'src/store/sealed/wrapped-data-key.ts',
        'src/store/redis/encrypted-records.ts',
        'src/store/connection-shape.ts',
        'src/store/postgres/migrations/migration.ts',
        'src/builder/builder-server.ts',
        'src/builder/session-tokens.ts',
        'src/store/memory/memory-tenant-stores.ts',
        'src/store/memory/memory-dedupe-store.ts',
        // Issue 37's import rows bundle every public entry, as the package ships them.
        'src/kit/index.ts',
        'src/agents/index.ts',
        'src/mcp/index.ts',
        'src/eval/index.ts',
      ],
      'toolsteps-bench-smoke',
    );
    // The cold starts measure the bin the package ships, bundled beside the compiled sources.
    await bundleForChild('toolsteps-bench-smoke');
    const results = await Promise.all(GROUPS.map((names) => benchOf(build, names)));
    for (const [index, result] of results.entries()) {
      expect(result.stderr, GROUPS[index]?.join(' ')).toBe('');
      expect(result.status, GROUPS[index]?.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^machine: .+, \d+ cores, node v\d+/m);
    }
    const figures = [
      'client CPU per call, get_ticket_info',
      'client CPU per call, list_tickets 25',
      'client CPU per call, list_tickets 100',
      'client CPU per call, create_ticket',
      'cold --version',
      'cold search zendesk',
      'cold run get_ticket_info',
      "import 'toolsteps'",
      // Issue 37: each public entry against its own dependencies alone.
      "import('toolsteps'), wall",
      "import('toolsteps/kit'), wall",
      "import('toolsteps/steps'), wall",
      "import('toolsteps/sandbox'), wall",
      "import('toolsteps/agents'), wall",
      "import('toolsteps/mcp'), wall",
      'paging 250 tickets x2: RSS growth',
      '10 concurrent callers, one connection (errors 0)',
      'bulk enrichment, 300 contacts, 2/min at 60x (3 requests)',
      'UI kit (toolsteps-ui.js), gzipped bytes',
      // Redis, Postgres and the queue have rows only where they answer; these need nothing but the machine.
      'invoke CPU per call, get_ticket_info (2 req), memory store',
      'invoke CPU per call, get_ticket_info (2 req), file store',
      'MCP server CPU per tools/call, get_ticket_info, stdio',
      'MCP server CPU per tools/call, get_ticket_info, Streamable HTTP',
      'MCP 5 concurrent HTTP sessions',
      'intake: listen, file stores',
      'builder API: search + options, 5 concurrent clients',
      // Issue 39: the library with @opentelemetry/api installed and no SDK, against it not installed.
      '  ... @opentelemetry/api installed, no SDK registered, vs not installed',
    ];
    const lines = results.flatMap((result) => result.stdout.split('\n'));
    for (const figure of figures) {
      // Each row ends with its goal and a verdict.
      expect(lines.find((line) => line.startsWith(figure))).toMatch(/ (pass|FAIL)$/);
    }
    // No goal: a figure, or `not measured` with the reason where Chromium is missing.
    expect(lines.find((line) => line.startsWith('step form first render in Chromium'))).toMatch(
      /( measured$|not measured \()/,
    );
    expect(lines.find((line) => line.startsWith('import: bare node -e ""'))).toMatch(/ ms \/ [\d.]+ ms$/);
    // No goal either (issue 35's choice of framework): Fastify, a dependency, is always measured.
    expect(lines.find((line) => line.startsWith('  ... fastify, POST /hooks/:id'))).toMatch(/ us, \d+\/s /);
  }, 480_000);
});

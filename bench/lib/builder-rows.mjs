import { cpuRow } from './cpu-row.mjs';

const percentile = (values, p) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
    : Number.NaN;
};
const ms = (value) => value.toFixed(2);
const spread = (results, field) => ({
  p50: percentile(
    results.map((r) => r[field]),
    50,
  ),
  p99: percentile(
    results.map((r) => r[field]),
    99,
  ),
});

/**
 * The builder API under load (issue 26): the server's own time per request
 * (its `Server-Timing: app;dur`) p50 / p99 against the bare server's, the
 * goal on ours; then each route, the clients' wall time, and what the
 * provider was asked while measured.
 */
export function builderRows(row, measured) {
  const { sizes, ours, baseline, bytes } = measured;
  const errors = ours.results.filter((result) => !result.ok);
  const server = spread(ours.results, 'serverMs');
  const bare = spread(baseline.results, 'serverMs');
  row(
    `builder API: search + options, ${sizes.clients} concurrent clients, ${ours.results.length} requests (errors ${errors.length}), server time p50 / p99`,
    `${ms(server.p50)} / ${ms(server.p99)} ms`,
    `${ms(bare.p50)} / ${ms(bare.p99)} ms (bare node:http, same JSON sizes)`,
    `${(server.p99 / bare.p99).toFixed(2)}x (p99)`,
    'p99 <= 5 ms, 0 errors',
    server.p99 <= 5 && errors.length === 0,
  );
  for (const kind of ['search', 'options']) {
    const mine = spread(
      ours.results.filter((result) => result.kind === kind),
      'serverMs',
    );
    const theirs = spread(
      baseline.results.filter((result) => result.kind === kind),
      'serverMs',
    );
    row(
      `  ... ${kind === 'search' ? 'GET /v1/steps?q=' : 'POST /v1/steps/ticketing.create_ticket/options (assignee)'} (${bytes[kind]} B)`,
      `${ms(mine.p50)} / ${ms(mine.p99)} ms`,
      `${ms(theirs.p50)} / ${ms(theirs.p99)} ms`,
      `${(mine.p99 / theirs.p99).toFixed(2)}x (p99)`,
      '',
    );
  }
  const client = spread(ours.results, 'clientMs');
  const bareClient = spread(baseline.results, 'clientMs');
  row(
    `  ... client wall time p50 / p99; ${(ours.results.length / ours.seconds).toFixed(0)} vs ${(baseline.results.length / baseline.seconds).toFixed(0)} requests/s`,
    `${ms(client.p50)} / ${ms(client.p99)} ms`,
    `${ms(bareClient.p50)} / ${ms(bareClient.p99)} ms`,
    `${(client.p99 / bareClient.p99).toFixed(2)}x (p99)`,
    '',
  );
  cpuRow(row, '  ... server process CPU per request', ours.cpuUsPerRequest, baseline.cpuUsPerRequest);
  row(
    `  ... provider requests while measured (options cache warm): ${ours.providerRequests}`,
    '',
    '',
    '',
    '0',
    ours.providerRequests === 0,
  );
  const byStatus = new Map();
  for (const error of errors) byStatus.set(error.status, (byStatus.get(error.status) ?? 0) + 1);
  for (const [status, count] of byStatus) row(`  ... error ${status}`, String(count), '', '', '');
}

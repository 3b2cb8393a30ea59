import { perCallGoalUs } from './edge-rows.mjs';

const signedUs = (us) => `${us >= 0 ? '+' : ''}${us.toFixed(0)}`;
const tally = (commands) => {
  const counts = new Map();
  for (const command of commands) counts.set(command, (counts.get(command) ?? 0) + 1);
  return [...counts].map(([command, n]) => (n > 1 ? `${n} ${command}` : command)).join(', ');
};
/** A Postgres statement as a few words: its first keyword, or the table it reads. */
const statementName = (text) => {
  const from = /\bFROM\s+([\w.]+)/i.exec(text);
  if (from) return `SELECT ${from[1].replace(/^toolsteps\./, '')}`;
  return text.trim().split(/\s+/).slice(0, 2).join(' ').replace(/;$/, '');
};

/**
 * The tenants-at-scale rows (issue 26), per backend: a lookup's round trips
 * and latency, a tenant's list with many tenants loaded against few (and,
 * for Postgres, the plans), and invoke CPU per call with the store loaded.
 */
export function tenantRows(row, { measured, skipped }) {
  for (const m of measured) {
    const scale = `${m.sizes.tenants} tenants x ${m.sizes.perTenant}`;
    const named = (trips) => (m.name === 'Redis store' ? trips : trips.map(statementName));
    row(
      `tenants: get, ${m.name} (${scale}, loaded in ${(m.loadMs / 1000).toFixed(1)} s), round trips`,
      `${m.getTrips.length} (${tally(named(m.getTrips))})`,
      `${m.bareTrips.length} (${m.roundTripLabel})`,
      `${m.getTrips.length}x`,
      '1 round trip',
      m.getTrips.length === 1,
    );
    row(
      '  ... get latency p50 / p99 (wall, random tenants)',
      `${m.latency.get.p50.toFixed(0)} / ${m.latency.get.p99.toFixed(0)} us`,
      `${m.latency.bare.p50.toFixed(0)} / ${m.latency.bare.p99.toFixed(0)} us`,
      `${(m.latency.get.p50 / m.latency.bare.p50).toFixed(2)}x / ${(m.latency.get.p99 / m.latency.bare.p99).toFixed(2)}x`,
      '',
    );
    const same = m.listTrips.big.length === m.listTrips.small.length;
    const ratio = m.listUs.big / m.listUs.small;
    row(
      `tenants: list() of one tenant's ${m.sizes.perTenant}, ${m.name}, ${m.sizes.tenants} tenants vs ${m.sizes.small} (round trips ${m.listTrips.big.length} vs ${m.listTrips.small.length})`,
      `${(m.listUs.big / 1000).toFixed(2)} ms`,
      `${(m.listUs.small / 1000).toFixed(2)} ms`,
      `${ratio.toFixed(2)}x`,
      '<= 1.25x, same round trips',
      ratio <= 1.25 && same,
    );
    if (m.plans) {
      for (const [call, plan] of Object.entries(m.plans)) {
        const scans = plan
          .filter((line) => /Scan/.test(line))
          .map((line) => line.trim().replace(/^->\s*/, ''));
        const seq = scans.some((line) => /Seq Scan on connections/.test(line));
        row(
          `  ... EXPLAIN ${call}(): ${scans.map((line) => line.replace(/\s+\(cost.*$/, '')).join('; ')}`,
          '',
          '',
          '',
          'no Seq Scan on connections',
          !seq,
        );
      }
    }
    const ours = m.cpu.ours;
    const baseline = m.cpu.baseline;
    row(
      `invoke CPU per call, get_ticket_info (${m.requests} req), ${m.name}, ${scale} loaded`,
      `${ours.toFixed(0)} us (${signedUs(ours - baseline)})`,
      `${baseline.toFixed(0)} us (bare + ${m.roundTripLabel})`,
      `${(ours / baseline).toFixed(2)}x`,
      // A shared store's goal (issue 43): the loaded stores are Redis and Postgres.
      `<= +${perCallGoalUs({ roundTrip: true })} us`,
      ours - baseline <= perCallGoalUs({ roundTrip: true }),
    );
  }
  for (const reason of skipped) row(`  ... tenants not measured: ${reason}`, '', '', '', '');
}

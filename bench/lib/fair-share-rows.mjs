import { measureFairShare } from './fair-share.mjs';
import { loadClient } from './per-call.mjs';
import { startSandboxProcess } from './sandbox-process.mjs';

/**
 * Issue 23's fair share: one tenant floods a 2-worker pool with bulk
 * enrichment while another makes single calls; the second's p99 against
 * running alone, with the flood unlimited and held to its calls per minute.
 */
export async function fairShareRows(row, build, sizes) {
  const keys = { a: 'cd_bench_flood_0001', b: 'cd_bench_single_0001' };
  const many = 1_000_000_000;
  const sandbox = await startSandboxProcess(build, {
    contactData: {
      keys: { [keys.a]: { credits: many }, [keys.b]: { credits: many } },
      quota: { minute: many, hourly: many, daily: many },
    },
  });
  try {
    const client = await loadClient(build);
    const { alone, unlimited, limited } = await measureFairShare(
      client,
      build,
      { ...sandbox, keys },
      sizes.fairShare,
    );
    const ms = (value) => `${value.toFixed(1)} ms`;
    const { floodCallsPerMinute, backlog, contacts } = sizes.fairShare;
    row(
      `fair share: single calls' p99 beside a bulk flood held to ${floodCallsPerMinute} calls/min (${limited.calls} calls, 2 workers)`,
      ms(limited.p99),
      `${ms(alone.p99)} (alone)`,
      `${(limited.p99 / alone.p99).toFixed(2)}x`,
      '<= 1.5x',
      limited.p99 / alone.p99 <= 1.5,
    );
    row(
      `  ... the same flood unlimited (${backlog} jobs of ${contacts} contacts queued; ${unlimited.floodJobs.done} done)`,
      ms(unlimited.p99),
      `${ms(alone.p99)} (alone)`,
      `${(unlimited.p99 / alone.p99).toFixed(2)}x`,
      '',
    );
    row(
      `  ... p50: limited ${ms(limited.p50)}, unlimited ${ms(unlimited.p50)}, alone ${ms(alone.p50)}; flood jobs done limited ${limited.floodJobs.done}`,
      '',
      '',
      '',
      '',
    );
  } finally {
    await sandbox.stop();
  }
}

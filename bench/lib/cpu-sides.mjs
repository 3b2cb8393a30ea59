/** The median of the samples (the mean of the middle two for an even count). */
export const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * This process's CPU per call (us) of each side, the median over `rounds`
 * of `calls` calls after `warmup` calls of each: the sides interleaved
 * round by round, so a burst of load on the shared machine hits them alike.
 * `sides` maps a name to `async (unique) => {...}`; `unique` differs per call.
 */
export async function measureSides(sides, { rounds, calls, warmup }) {
  const entries = Object.entries(sides).map(([name, run]) => ({ name, run, samples: [] }));
  let unique = 0;
  for (const side of entries) for (let i = 0; i < warmup; i += 1) await side.run(`w${unique++}`);
  for (let round = 0; round < rounds; round += 1) {
    for (const side of entries) {
      const started = cpuMicros();
      for (let i = 0; i < calls; i += 1) await side.run(`r${unique++}`);
      side.samples.push((cpuMicros() - started) / calls);
    }
  }
  return Object.fromEntries(entries.map((side) => [side.name, median(side.samples)]));
}

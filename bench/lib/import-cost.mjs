import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleLibrary, importsAtLoad } from '../../scripts/bundle-library.mjs';
import { median } from './cpu-sides.mjs';
import { countAll, instructionCounter, millions } from './instruction-count.mjs';

const repository = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** The goal of issue 37: an entry costs at most this much more than importing its own dependencies alone. */
export const IMPORT_GOAL = 1.3;
/** A counted import runs for seconds under callgrind, two at a time; one ten times that long is stuck. */
const COUNTED_RUN_TIMEOUT_MS = 180_000;

/**
 * The package as a consumer resolves it: a folder with the package.json (its
 * `exports` map) and the bundles under dist/lib/. That is the repository
 * itself for the built dist/; for another build folder without bundles
 * (freshly compiled sources, as the smoke test makes) the library is bundled
 * into a package folder inside it, where the dependencies still resolve from
 * the repository's node_modules above it.
 */
async function packageRoot(build) {
  if (
    existsSync(path.join(build, 'lib/index.js')) &&
    existsSync(path.join(path.dirname(build), 'package.json'))
  )
    return path.dirname(build);
  const root = path.join(build, 'import-package');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(path.join(repository, 'package.json'), path.join(root, 'package.json'));
  await bundleLibrary({ root, compiled: build });
  return root;
}

/** The public entries that are code: `toolsteps`, `toolsteps/kit`, ..., and each one's bundle. */
function publicEntries(root) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.default?.startsWith('./dist/lib/'))
    .map(([subpath, target]) => ({
      specifier: path.posix.join(manifest.name, subpath),
      bundle: path.join(root, target.default),
    }));
}

/** An ES module that imports each specifier, as a bundle's own import statements do. */
const importing = (specifiers) =>
  specifiers.map((specifier) => `import ${JSON.stringify(specifier)};`).join('');

/**
 * Appended to every case: the process's own CPU time (all its threads, from
 * its start) written at exit. Wall time is the figure a user waits for; CPU
 * time is what a loaded machine blurs least.
 */
const REPORT_CPU =
  ";process.on('exit',()=>{const u=process.cpuUsage();process.stdout.write(String(u.user+u.system))})";

/** One fresh process: its wall time and its own CPU time, in ms. */
function timed([flags, code], cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...flags, '-e', code + REPORT_CPU], { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node -e ${code} in ${cwd} failed:\n${result.stderr}`);
  return { ms, cpuMs: Number(result.stdout) / 1000 };
}

/**
 * What importing each public entry costs a fresh process, against importing
 * exactly the dependencies its bundle imports at load, in the same run: each
 * entry as `node -e "await import('toolsteps/...')"` from the package's own
 * folder (the package's name resolves through its `exports` map there, as
 * from a consumer's), its baseline as a module of the same dependencies'
 * import statements run from the same folder (so they resolve to the same
 * files), and a bare `node -e ""` for reference. Every case runs `runs`
 * times, interleaved round by round so a burst of load on the shared machine
 * hits them alike; each figure is the median.
 *
 * With `instructionRuns`, each case's instructions too, the median of that
 * many counted runs (lib/instruction-count.mjs): what the load of a shared
 * machine barely moves. `instructions` names the counter, or why nothing
 * was counted.
 */
export async function measureImportCost(build, { runs, instructionRuns = 0 }) {
  const root = await packageRoot(build);
  const entries = [];
  for (const entry of publicEntries(root)) {
    const dependencies = await importsAtLoad(entry.bundle);
    entries.push({
      ...entry,
      dependencies,
      ours: [['--input-type=module'], `await import(${JSON.stringify(entry.specifier)})`],
      baseline: [['--input-type=module'], importing(dependencies)],
    });
  }
  const cases = [[[], ''], ...entries.flatMap((entry) => [entry.ours, entry.baseline])];
  // One run of each first: the files are read from disk once, as they would be after an install.
  for (const args of cases) timed(args, root);
  const samples = cases.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    for (const [index, args] of cases.entries()) samples[index].push(timed(args, root));
  }
  const instructions = instructionRuns > 0 ? await countInstructions(cases, root, instructionRuns) : {};
  const medians = samples.map((times, index) => ({
    ms: median(times.map((time) => time.ms)),
    cpuMs: median(times.map((time) => time.cpuMs)),
    instructions: instructions.perCase?.[index],
  }));
  return {
    runs,
    instructions: { counter: instructions.counter, runs: instructionRuns, reason: instructions.reason },
    bare: medians[0],
    entries: entries.map((entry, index) => ({
      specifier: entry.specifier,
      dependencies: entry.dependencies,
      ours: medians[1 + 2 * index],
      baseline: medians[2 + 2 * index],
    })),
  };
}

/** Each case's median instructions over `runs` counted runs, or `{ reason }` where nothing counts. */
async function countInstructions(cases, cwd, runs) {
  const counter = await instructionCounter();
  if (!counter.count) return { reason: counter.reason };
  const jobs = [];
  for (let run = 0; run < runs; run += 1) {
    for (const [flags, code] of cases) {
      jobs.push(() => counter.count([...flags, '-e', code], { cwd, timeoutMs: COUNTED_RUN_TIMEOUT_MS }));
    }
  }
  const counts = await countAll(jobs);
  const perCase = cases.map((_, index) => median(counts.filter((_, job) => job % cases.length === index)));
  return { counter: counter.name, perCase };
}

/** A row under an entry's: another measure of the same two processes, without a goal. */
const measureRow = (row, measure, ours, baseline, format) =>
  row(`  ... ${measure}`, format(ours), format(baseline), `${(ours / baseline).toFixed(2)}x`, '');

/** The import rows: each entry against its dependencies alone, wall and CPU time, with the goal, and bare node. */
export function importRows(row, measured) {
  const ms = (value) => `${value.toFixed(1)} ms`;
  row(
    `import: bare node -e "", median of ${measured.runs} fresh processes (wall / CPU)`,
    `${ms(measured.bare.ms)} / ${ms(measured.bare.cpuMs)}`,
    '',
    '',
    '',
  );
  for (const entry of measured.entries) {
    const packages = entry.dependencies.filter((name) => !name.startsWith('node:'));
    const builtIns = entry.dependencies.length - packages.length;
    const ratio = entry.ours.ms / entry.baseline.ms;
    row(
      `import('${entry.specifier}'), wall`,
      ms(entry.ours.ms),
      `${ms(entry.baseline.ms)} (${[...packages, `${builtIns} built-ins`].join(', ')})`,
      `${ratio.toFixed(2)}x`,
      `<= ${IMPORT_GOAL}x`,
      ratio <= IMPORT_GOAL,
    );
    measureRow(row, 'CPU', entry.ours.cpuMs, entry.baseline.cpuMs, ms);
    if (entry.ours.instructions)
      measureRow(row, 'instructions', entry.ours.instructions, entry.baseline.instructions, millions);
  }
  const counted = measured.instructions;
  const how = counted.counter
    ? `${counted.counter}, median of ${counted.runs}; bare node -e "" ${millions(measured.bare.instructions)}`
    : `not counted (${counted.reason ?? '--smoke'})`;
  row(`import, instructions: ${how}`, '', '', '', '');
}

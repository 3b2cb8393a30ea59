import { measureCatalogScale } from './catalog-scale.mjs';
import { millions } from './instruction-count.mjs';
import { measurePackageSize } from './package-size.mjs';

/**
 * The rows of issue 14's figures (and issue 27's package, issue 26's
 * catalogue), each taking `row(figure, ours, baseline, ratio, goal, pass)`
 * from bench.mjs, which prints the table.
 */

const signedMillions = (count) => `${count >= 0 ? '+' : ''}${(count / 1e6).toFixed(2)}`;

export function coldRows(row, cold) {
  if (cold.missing.length) throw new Error(`cold start cases failed: ${cold.missing.join(', ')}`);
  for (const entry of cold.cases.filter((item) => item.goal || item.shown)) {
    row(
      `cold ${entry.name.replace('toolsteps ', '')} (${cold.cli}, ${entry.files} file${entry.files === 1 ? '' : 's'})`,
      `${entry.ms.toFixed(1)} ms`,
      `${cold.baselineMs.toFixed(1)} ms (node -e 0)`,
      `${entry.ratio.toFixed(2)}x`,
      entry.goal ? `<= ${entry.goal}x` : 'once per command',
      entry.goal ? entry.ratio <= entry.goal : undefined,
    );
  }
  coldInstructionRows(row, cold);
  row(
    "import 'toolsteps': CLI, commander, csv-parse, sandbox, demo files",
    String(cold.forbidden.length),
    '',
    '',
    '0',
    cold.forbidden.length === 0,
  );
}

/** Each cold case's instructions against `node -e 0`'s, with the time row's goal; --help has none. */
function coldInstructionRows(row, cold) {
  const counted = cold.instructions;
  if (!counted) {
    row('cold starts, instructions: not counted (--smoke)', '', '', '', '');
    return;
  }
  if (!counted.counter) {
    row(`cold starts, instructions: not measured (no counter: ${counted.reason})`, '', '', '', '');
    return;
  }
  for (const entry of cold.cases.filter((item) => item.args[0] !== '-e')) {
    row(
      `cold ${entry.name.replace('toolsteps ', '')}, instructions`,
      millions(entry.instructions),
      `${millions(counted.perCase[0])} (node -e 0)`,
      `${entry.instructionRatio.toFixed(2)}x`,
      entry.goal ? `<= ${entry.goal}x` : entry.shown ? 'once per command' : '',
      entry.goal ? entry.instructionRatio <= entry.goal : undefined,
    );
  }
  row(
    `  ... ${counted.counter}, median of ${counted.runs} (runs of a case up to ${(counted.spread * 100).toFixed(1)}% apart)`,
    '',
    '',
    '',
    '',
  );
}

/** Issue 43: invoke(get_ticket_info) at most this many times a bare dispatcher.request's instructions. */
const INSTRUCTIONS_GOAL_RATIO = 1.25;

/**
 * Instructions per warm call, ours against bare fetch (no goal: that goal,
 * +25 us, is a time) and against a bare dispatcher.request, the one with
 * issue 43's goal for get_ticket_info with the memory and the file store.
 */
export function perCallInstructionRows(row, counted, sizes) {
  if (!counted.counter) {
    row(`client instructions per call: not measured (no counter: ${counted.reason})`, '', '', '', '');
    return;
  }
  const { warmup, calls } = sizes.perCallInstructions;
  for (const entry of counted.cases) {
    row(
      `client instructions per call, ${entry.name}`,
      `${(entry.ours / 1e6).toFixed(2)} M (${signedMillions(entry.ours - entry.bare)})`,
      `${(entry.bare / 1e6).toFixed(2)} M`,
      `${(entry.ours / entry.bare).toFixed(2)}x`,
      '',
    );
    // Issue 43's goal is on get_ticket_info (memory and file stores): at most 1.25x a bare dispatcher.request.
    const goal = entry.stores === undefined ? undefined : INSTRUCTIONS_GOAL_RATIO;
    const inProcess = [['', entry.ours]];
    if (entry.stores)
      inProcess.splice(0, 1, [', memory store', entry.ours], [', file store', entry.stores.file]);
    for (const [store, ours] of inProcess) {
      row(
        `  ... vs a bare undici dispatcher.request${store}`,
        `${(ours / 1e6).toFixed(2)} M (${signedMillions(ours - entry.request)})`,
        `${(entry.request / 1e6).toFixed(2)} M`,
        `${(ours / entry.request).toFixed(2)}x`,
        goal === undefined ? '' : `<= ${goal}x`,
        ...(goal === undefined ? [] : [ours / entry.request <= goal]),
      );
    }
    // A shared store's goal is a time (+75 us beside its round trip): its count is shown against the same baseline.
    for (const [name, label, trip] of [
      ['redis', 'Redis store', 'one Redis GET'],
      ['postgres', 'Postgres store', 'one SELECT 1'],
    ]) {
      const ours = entry.stores?.[name];
      const base = entry.stores?.[`request+${name}`];
      if (ours === undefined || base === undefined) continue;
      row(
        `  ... vs a bare dispatcher.request + ${trip}, ${label}`,
        `${(ours / 1e6).toFixed(2)} M (${signedMillions(ours - base)})`,
        `${(base / 1e6).toFixed(2)} M`,
        `${(ours / base).toFixed(2)}x`,
        '',
      );
    }
  }
  for (const reason of counted.skipped ?? []) row(`  ... not counted: ${reason}`, '', '', '', '');
  const how = counted.split
    ? `${calls} calls counted after ${warmup}`
    : `${warmup} + ${calls} calls less ${warmup}`;
  row(
    `  ... ${counted.counter}: ${how}, a process each, ${counted.runs} runs in ${(counted.wallMs / 1000).toFixed(0)} s`,
    '',
    '',
    '',
    '',
  );
}

export function pagingRows(row, paging, sizes) {
  const growth = (side) => side.samples.at(-1) - side.samples[0];
  const oursPaging = paging.ours;
  const acrossRepeats = (values) => values.at(-1) - values[1];
  const signed = (mb) => `${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`;
  row(
    `paging ${oursPaging.tickets} tickets x${sizes.paging.repeats}: RSS growth`,
    `${growth(oursPaging).toFixed(1)} MB`,
    `${growth(paging.bare).toFixed(1)} MB`,
    signed(growth(oursPaging) - growth(paging.bare)),
    '<= +30 MB',
    growth(oursPaging) - growth(paging.bare) <= 30,
  );
  row(
    `  ... RSS after repeat ${sizes.paging.repeats} vs repeat 1`,
    signed(acrossRepeats(oursPaging.samples)),
    signed(acrossRepeats(paging.bare.samples)),
    '',
    '<= +5 MB',
    acrossRepeats(oursPaging.samples) <= 5,
  );
  // What a leak would grow: the heap in use after a full GC, each repeat alike (the bare side for scale).
  row(
    `  ... heap in use after repeat ${sizes.paging.repeats} vs repeat 1`,
    signed(acrossRepeats(oursPaging.heap)),
    signed(acrossRepeats(paging.bare.heap)),
    '',
    '<= +1 MB',
    acrossRepeats(oursPaging.heap) <= 1,
  );
}

export function concurrencyRow(row, concurrency, sizes) {
  const callRatio = concurrency.ours.perSecond / concurrency.bare.perSecond;
  row(
    `${sizes.concurrency.callers} concurrent callers, one connection (errors ${concurrency.ours.errors})`,
    `${concurrency.ours.perSecond.toFixed(0)} calls/s`,
    `${concurrency.bare.perSecond.toFixed(0)} calls/s`,
    `${callRatio.toFixed(2)}x`,
    '>= 0.9x, 0 errors',
    callRatio >= 0.9 && concurrency.ours.errors === 0,
  );
  for (const [side, { byCode }] of Object.entries(concurrency)) {
    for (const [code, count] of Object.entries(byCode))
      row(`  ... ${side} error ${code}`, String(count), '', '', '', undefined);
  }
}

/** A 10,000-step catalogue across 500 integrations (issue 26), beside the real one in the same run. */
export async function catalogRows(row, build, sizes) {
  const scale = await measureCatalogScale(build, sizes.catalog);
  const ms = (value) => `${value.toFixed(3)} ms`;
  const label = `${scale.steps} steps / ${scale.integrations} integrations`;
  row(
    `search p99 (p50), ${label}`,
    `${ms(scale.search.large.p99)} (${ms(scale.search.large.p50)})`,
    `${ms(scale.search.real.p99)} (${scale.realSteps} real steps)`,
    `${(scale.search.large.p99 / scale.search.real.p99).toFixed(1)}x`,
    '<= 1 ms',
    scale.search.large.p99 <= 1,
  );
  row(
    `describe p99 (p50) (input JSON Schema), ${label}`,
    `${ms(scale.describe.large.p99)} (${ms(scale.describe.large.p50)})`,
    `${ms(scale.describe.real.p99)} (real)`,
    `${(scale.describe.large.p99 / scale.describe.real.p99).toFixed(1)}x`,
    '<= 0.2 ms',
    scale.describe.large.p99 <= 0.2,
  );
  const [smallest, , largest] = scale.manifestPerStep;
  row(
    `manifest build per step, ${largest.steps} steps`,
    `${largest.usPerStep.toFixed(0)} us`,
    `${smallest.usPerStep.toFixed(0)} us (${smallest.steps} steps)`,
    `${(largest.usPerStep / smallest.usPerStep).toFixed(2)}x`,
    '<= 1.5x (linear)',
    largest.usPerStep / smallest.usPerStep <= 1.5,
  );
}

/** The tarball a consumer downloads (issue 27): its budget is 700 KB packed. */
export async function packageRow(row) {
  const size = await measurePackageSize();
  const kb = (bytes) => `${(bytes / 1000).toFixed(0)} KB`;
  row(
    `package tarball: packed (${size.files} files, ${kb(size.unpackedBytes)} unpacked)`,
    kb(size.packedBytes),
    '700 KB (budget)',
    `${(size.packedBytes / 700_000).toFixed(2)}x`,
    '<= 1.00x',
    size.packedBytes <= 700_000,
  );
}

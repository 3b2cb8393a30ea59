import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './cpu-sides.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The otel figure (issue 39): get_ticket_info's client CPU per call in
 * processes of three kinds (otel-child.mjs), each against its own bare fetch
 * baseline so they compare by their extra over bare: `@opentelemetry/api`
 * not installed, installed with no SDK, and the SDK registered with a batch
 * exporter. The kinds take turns, `processes` times each, and each kind's
 * figures are the medians: one process of a loaded machine can be slower
 * throughout than the next.
 */
export function measureOtel(build, sandbox, { processes, ...sizes }) {
  const runs = { absent: [], api: [], sdk: [] };
  // Every side runs under a loader hook (which costs each later import() alike): one that hides
  // @opentelemetry/* for the "not installed" side, one that passes everything on for the others.
  const loaderOf = (mode) => [
    '--import',
    path.join(here, mode === 'absent' ? 'hide-opentelemetry.mjs' : 'same-loader.mjs'),
  ];
  const child = path.join(here, 'otel-child.mjs');
  const common = [build, JSON.stringify(sandbox)];
  for (let turn = 0; turn < processes; turn += 1) {
    for (const mode of Object.keys(runs)) {
      const args = [...loaderOf(mode), child, ...common, mode, JSON.stringify(sizes)];
      const ran = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (ran.status !== 0) throw new Error(`the otel figure (${mode}) failed:\n${ran.stderr}`);
      runs[mode].push(JSON.parse(ran.stdout));
    }
  }
  const sides = {};
  for (const [mode, figures] of Object.entries(runs)) {
    sides[mode] = {
      oursUs: median(figures.map((figure) => figure.oursUs)),
      bareUs: median(figures.map((figure) => figure.bareUs)),
      extraUs: median(figures.map((figure) => figure.oursUs - figure.bareUs)),
      spans: figures.reduce((sum, figure) => sum + figure.spans, 0),
      processes: figures.length,
    };
  }
  return sides;
}

/** The otel rows: each side's extra CPU over its bare baseline; no SDK against not installed has a goal. */
export function otelRows(row, sides, signedUs) {
  const extra = (side) => side.extraUs;
  const { absent, api, sdk } = sides;
  row(
    `otel: client CPU per call, get_ticket_info (2 req), extra over bare fetch in the same process, median of ${sides.api.processes} processes each`,
    '',
    '',
    '',
    '',
  );
  row(
    '  ... @opentelemetry/api installed, no SDK registered, vs not installed',
    `${api.oursUs.toFixed(0)} us (${signedUs(extra(api))} over bare)`,
    `${absent.oursUs.toFixed(0)} us (${signedUs(extra(absent))} over bare)`,
    `${signedUs(extra(api) - extra(absent))} us`,
    '<= +5 us',
    extra(api) - extra(absent) <= 5,
  );
  row(
    `  ... SDK registered, BatchSpanProcessor (${sdk.spans} spans exported), vs no SDK`,
    `${sdk.oursUs.toFixed(0)} us (${signedUs(extra(sdk))} over bare)`,
    `${api.oursUs.toFixed(0)} us (${signedUs(extra(api))})`,
    `${signedUs(extra(sdk) - extra(api))} us`,
    'measured',
  );
}

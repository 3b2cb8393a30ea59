// The UI kit's size as a browser downloads it: dist/ui/toolsteps-ui.js, bundled
// from ui/ afresh (the kit's sources, whatever --build says) and gzipped at
// level 9, as a static server or CDN would serve it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleUi } from '../../scripts/bundle-ui.mjs';

/** The gzip budget of the whole kit, in bytes: every element, the client and the theme. */
export const UI_BUDGET_BYTES = 20_000;

export async function measureUiBundle() {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-ui-size-'));
  try {
    const kit = readFileSync(await bundleUi({ outdir }));
    return { minified: kit.length, gzipped: gzipSync(kit, { level: 9 }).length };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

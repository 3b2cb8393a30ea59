#!/usr/bin/env node
// Bundles the UI kit for the browser into dist/ui/, the folder `toolsteps ui`
// serves:
//   toolsteps-ui.js   the kit in one ES module (for a plain <script type="module">
//                     and the size budget); `toolsteps/ui` in the exports map names it too
//   index.html, page.js, page.css   the reference builder page; page.js loads
//                     the kit from toolsteps-ui.js, as an embedder's page would
//
// The kit imports only types from src/builder: a value import would pull zod
// into the browser, which the bundle's size budget (bench/) would show.
//
// Usage: node scripts/bundle-ui.mjs   (ui/ -> dist/ui/)
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The page's import of the kit (`../index.js`) stays a request for the kit's own bundle. */
function kitApart() {
  return {
    name: 'kit-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: './toolsteps-ui.js', external: true }));
    },
  };
}

/** A build that warned is one that runs, but not as meant; it fails here instead. */
async function strictBuild(options) {
  const result = await build({
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Custom elements, private class fields and optional chaining everywhere the kit runs.
    target: ['chrome111', 'firefox111', 'safari16.4'],
    minify: true,
    // No map: the package ships no maps, and a link to a missing one only makes devtools complain.
    sourcemap: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    ...options,
  });
  if (result.warnings.length)
    throw new Error(`bundling the UI gave ${result.warnings.length} warning(s); see above`);
  return result.metafile;
}

/** Bundles the kit and the reference page into `outdir`; resolves with the kit bundle's path. */
export async function bundleUi({ outdir = path.join(root, 'dist/ui') } = {}) {
  mkdirSync(outdir, { recursive: true });
  const kitFile = path.join(outdir, 'toolsteps-ui.js');
  await strictBuild({ entryPoints: [path.join(root, 'ui/index.ts')], outfile: kitFile });
  await strictBuild({
    entryPoints: [path.join(root, 'ui/page/reference-page.ts')],
    outfile: path.join(outdir, 'page.js'),
    plugins: [kitApart()],
  });
  for (const file of ['index.html', 'page.css'])
    copyFileSync(path.join(root, 'ui/page', file), path.join(outdir, file));
  return kitFile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleUi();

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleUi } from '../../scripts/bundle-ui.mjs';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/chromium.mjs';
import { startBenchBuilder } from './bench-builder.mjs';

const STEP = 'ticketing.create_ticket';

/**
 * The page: the UI kit (bundled from ui/ by scripts/bundle-ui.mjs), configured with the builder on the page's own
 * origin, and three measures the bench calls in turn, each from the moment
 * it starts to its fields in the DOM with layout done (a forced reflow):
 * `form()` appends a `<toolsteps-step-form>` and sets its step, done at its
 * `toolsteps-loaded` event (fired once the fields are rendered); `describe()`
 * fetches the same describe JSON alone, as the element's client does;
 * `staticForm(n)` builds a plain `<form>` of `n` labelled inputs.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>step form render</title></head>
<body><main id="stage"></main>
<script type="module">
import { configure } from './toolsteps-ui.js';
const token = new URLSearchParams(location.hash.slice(1)).get('token');
configure({ token });
const stage = document.getElementById('stage');
const settle = (element) => element.getBoundingClientRect().height;
window.bench = {
  async form(step) {
    stage.replaceChildren();
    const started = performance.now();
    const form = document.createElement('toolsteps-step-form');
    const loaded = new Promise((resolve, reject) => {
      form.addEventListener('toolsteps-loaded', resolve, { once: true });
      setTimeout(() => reject(new Error('no toolsteps-loaded within 20 s')), 20000);
    });
    form.setAttribute('step', step);
    stage.append(form);
    await loaded;
    settle(form);
    const ms = performance.now() - started;
    return { ms, fields: form.shadowRoot.querySelectorAll('[part~="field"]').length };
  },
  async describe(step) {
    const started = performance.now();
    const answer = await fetch('/v1/steps/' + encodeURIComponent(step), { headers: { authorization: 'Bearer ' + token } });
    await answer.json();
    return { ms: performance.now() - started };
  },
  staticForm(count) {
    stage.replaceChildren();
    const started = performance.now();
    const form = document.createElement('form');
    for (let i = 0; i < count; i += 1) {
      const label = document.createElement('label');
      label.textContent = 'Field ' + i;
      label.htmlFor = 'f' + i;
      const input = document.createElement('input');
      input.id = 'f' + i;
      input.name = 'f' + i;
      form.append(label, input);
    }
    stage.append(form);
    settle(form);
    return { ms: performance.now() - started };
  },
};
window.benchReady = true;
</script></body></html>`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The step form's first render in Chromium (issue 26): the page above,
 * served by the builder server (from the build, in this process) beside its
 * API, `runs` renders of create_ticket's form (no connection: its generic
 * schema) interleaved with the two baselines, the median of each, after
 * one render that loads the page's code (`firstMs`). `{ skipped }` with the
 * reason when Chromium or playwright-core is missing.
 */
export async function measureStepFormRender(build, { runs }) {
  if (!existsSync(CHROMIUM)) return { skipped: `Chromium is not at ${CHROMIUM}` };
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return { skipped: 'playwright-core is not installed' };
  }
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-bench-page-'));
  const profile = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-bench-chromium-'));
  // The kit bundled afresh from ui/, as the size row bundles it, whatever --build says.
  await bundleUi({ outdir: root });
  writeFileSync(path.join(root, 'index.html'), PAGE);
  const server = await startBenchBuilder(build, { staticRoot: root });
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1200, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/#token=${encodeURIComponent(server.token)}`);
    await page.waitForFunction(() => window.benchReady === true);
    const first = await page.evaluate((step) => window.bench.form(step), STEP);
    const samples = { form: [], describe: [], staticForm: [] };
    for (let run = 0; run < runs; run += 1) {
      samples.form.push((await page.evaluate((step) => window.bench.form(step), STEP)).ms);
      samples.describe.push((await page.evaluate((step) => window.bench.describe(step), STEP)).ms);
      samples.staticForm.push((await page.evaluate((n) => window.bench.staticForm(n), first.fields)).ms);
    }
    return {
      runs,
      fields: first.fields,
      firstMs: first.ms,
      formMs: median(samples.form),
      describeMs: median(samples.describe),
      staticFormMs: median(samples.staticForm),
      browser:
        /(?:HeadlessChrome|Chrome)\/([\d.]+)/.exec(await page.evaluate(() => navigator.userAgent))?.[1] ??
        'unknown',
    };
  } catch (error) {
    return { skipped: `Chromium did not render the page: ${error.message.split('\n')[0]}` };
  } finally {
    await context?.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

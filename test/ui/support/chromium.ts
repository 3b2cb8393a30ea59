import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Browser as PlaywrightBrowser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../../scripts/chromium.mjs';
import { logNavigations } from './navigation-log.js';

/**
 * Headless Chromium for the browser tests: Debian's package at
 * /usr/bin/chromium (browsers cannot be downloaded here; .ci/run installs it
 * with apt when missing), driven by playwright-core, with the flags that
 * work on this closed network (scripts/chromium.mjs, shared with the bench)
 * and a fresh profile per launch.
 */
export { CHROMIUM, CHROMIUM_FLAGS };

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 900 },
  });
  // A loaded 2-core machine: generous waits for what the page does, none for our assertions' logic.
  context.setDefaultTimeout(20_000);
  for (const page of context.pages()) logNavigations(page);
  context.on('page', logNavigations);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium without a persistent profile, for tests that need several
 * browsers at once: each `newContext()` is a browser of its own (its own
 * cookies and storage), as two people's browsers are.
 */
export async function launchChromiumForContexts(): Promise<PlaywrightBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (shadow roots included). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: unknown): Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations as { id: string; impact: string; help: string; nodes: { target: unknown }[] }[];
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
}

let folder: string | undefined;

/**
 * Where the screenshots of each screen go: TOOLSTEPS_UI_SCREENSHOTS (CI
 * sets it and prints it), or a fresh temporary folder; printed once.
 */
export function screenshotFolder(): string {
  if (folder) return folder;
  folder =
    process.env.TOOLSTEPS_UI_SCREENSHOTS ?? mkdtempSync(path.join(os.tmpdir(), 'toolsteps-ui-screens-'));
  mkdirSync(folder, { recursive: true });
  console.log(`toolsteps ui screenshots: ${folder}`);
  return folder;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await fullPageScreenshot(page, path.join(screenshotFolder(), `${name}.png`));
}

/**
 * The whole page as one picture. Scrolled to its end first: a full-page
 * capture keeps the viewport's scroll, so a sticky bar (the step form's
 * actions) would be drawn mid-page over the fields, with an empty gap where
 * it belongs; at the end it sits in its own place.
 */
export async function fullPageScreenshot(page: Page, file: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.screenshot({ path: file, fullPage: true });
}

/**
 * How far the page scrolls sideways at its current width (0 when it does
 * not), and where that starts: the deepest elements, shadow roots included,
 * whose box or content (a word too long to wrap) passes the viewport's right
 * edge, so a failing check names the culprit rather than its every ancestor.
 */
export async function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const reach = (element: Element) => {
      const box = element.getBoundingClientRect();
      // Content that a box clips or scrolls widens nothing outside it.
      const clips = getComputedStyle(element).overflowX !== 'visible';
      return clips ? box.right : Math.max(box.right, box.left + element.scrollWidth);
    };
    const describe = (element: Element): string => {
      const name = element.tagName.toLowerCase() + (element.id ? `#${element.id}` : '');
      const classes = element.classList.length ? `.${[...element.classList].join('.')}` : '';
      const scope = element.getRootNode();
      return `${name}${classes}${scope instanceof ShadowRoot ? ` in ${describe(scope.host)}` : ''}`;
    };
    const over: Element[] = [];
    const parents = new Set<Element>();
    const visit = (scope: Document | ShadowRoot) => {
      for (const element of scope.querySelectorAll('*')) {
        if (reach(element) > width + 0.5) {
          over.push(element);
          const scopeOf = element.getRootNode();
          const parent = element.parentElement ?? (scopeOf instanceof ShadowRoot ? scopeOf.host : null);
          if (parent) parents.add(parent);
        }
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    visit(document);
    const culprits = over
      .filter((element) => !parents.has(element))
      .map(
        (element) =>
          `${describe(element)} reaching ${Math.round(reach(element))}px ("${(element.textContent ?? '').trim().slice(0, 40)}")`,
      );
    return { overflow: root.scrollWidth - width, culprits };
  });
}

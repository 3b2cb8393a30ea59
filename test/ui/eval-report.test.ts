import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser as PlaywrightBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, sandboxTwins, startSandbox } from '../../sandbox/index.js';
import { agentFromFunction } from '../../src/eval/eval-agent.js';
import { htmlReport } from '../../src/eval/html-report.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { EvalReport } from '../../src/eval/scenario-result.js';
import { createRegistry } from '../../steps/index.js';
import { STARTER_AGENTS } from '../eval/starter-agents.js';
import { useTempDir } from '../support/temp-dir.js';
import {
  type Browser,
  launchChromium,
  launchChromiumForContexts,
  screenshot,
  seriousViolations,
} from './support/chromium.js';

const SCENARIOS = 'docs/examples/eval/scenarios';

/** Two reports as CI would keep them: one scenario passed despite a fault, one failed for a duplicate write. */
async function reports(): Promise<EvalReport[]> {
  const registry = createRegistry();
  const sandbox: Sandbox = await startSandbox();
  try {
    const twins = sandboxTwins(sandbox, { registry });
    const timeout = path.join(SCENARIOS, 'retry-after-timeout.yaml');
    const agents = STARTER_AGENTS['retry-after-timeout']!;
    return [
      await runEvaluation({
        scenarios: [timeout, path.join(SCENARIOS, 'triage-ticket.yaml')],
        // One agent for both: each scenario's passing script.
        agent: agentFromFunction('the starter scripts', (session) =>
          STARTER_AGENTS[session.scenario]!.pass.run(session),
        ),
        registry,
        twins,
      }),
      await runEvaluation({ scenarios: [timeout], agent: agents.mistake, registry, twins }),
    ];
  } finally {
    await sandbox.close();
  }
}

describe('the HTML report in Chromium', () => {
  const dir = useTempDir('toolsteps-eval-html-', 'all');
  let browser: Browser;
  /** For the accessibility check: axe is injected as a script, which the report's own policy refuses. */
  let bypassing: PlaywrightBrowser;
  let pages: string[];
  beforeAll(async () => {
    pages = (await reports()).map((report, index) => {
      const file = path.join(dir(), `report-${index}.html`);
      writeFileSync(file, htmlReport(report));
      return pathToFileURL(file).href;
    });
    browser = await launchChromium();
    bypassing = await launchChromiumForContexts();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await bypassing?.close();
  });

  it('shows each run’s trajectory as a timeline: the fault armed, the call that failed, the retry that wrote twice', async () => {
    const page = await browser.context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pages[1]!);
    const calls = page.locator('[data-scenario="retry-after-timeout"] .timeline > li');
    await expect.poll(() => calls.count()).toBe(2);
    const rows = await calls.evaluateAll((items) =>
      items.map((item) => ({
        step: item.getAttribute('data-step'),
        outcome: item.getAttribute('data-outcome'),
        fault: item.querySelector('.fault')?.textContent ?? null,
        width: (item.querySelector('.bar') as HTMLElement).getBoundingClientRect().width,
      })),
    );
    expect(rows[0]).toMatchObject({
      step: 'ticketing.create_ticket',
      fault: 'fault armed: timeout on ticketing',
    });
    expect(rows[0]?.outcome).not.toBe('ok');
    expect(rows[1]).toMatchObject({ step: 'ticketing.create_ticket', outcome: 'ok', fault: null });
    expect(rows.every((row) => row.width > 0)).toBe(true);
    const failed = page.locator('[data-scenario="retry-after-timeout"] .checks li.fail');
    expect(await failed.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/exactly one ticket for REQ-1042 .*found 2/)]),
    );
    expect(await page.locator('.badge.fail').first().textContent()).toBe('FAIL');
    // Self-contained: the page asked for nothing but itself.
    expect(requests).toEqual([pages[1]]);
    await screenshot(page, 'eval-report-failed');
    await page.close();
  });

  it('shows a passing report with its recovered write, and has no serious accessibility problem', async () => {
    const context = await bypassing.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(pages[0]!);
    const scenarios = await page
      .locator('article.scenario')
      .evaluateAll((items) =>
        items.map((item) => [item.getAttribute('data-scenario'), item.getAttribute('data-passed')]),
      );
    expect(scenarios).toEqual([
      ['retry-after-timeout', 'true'],
      ['triage-ticket', 'true'],
    ]);
    const outcome = page.locator('[data-scenario="retry-after-timeout"] .timeline > li .outcome');
    expect(await outcome.first().textContent()).toContain('recovered');
    await page.locator('[data-scenario="triage-ticket"] details').last().locator('summary').click();
    await expect
      .poll(() => page.locator('[data-scenario="triage-ticket"] details[open] pre').first().textContent())
      .toContain('"group_id": 360002');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'eval-report-passed');
    await context.close();
  });
});

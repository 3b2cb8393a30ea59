import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Browser, launchChromium, screenshot } from './support/chromium.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * A step draft saved on List Tickets major 1, opened in the reference page's
 * step form as an embedder reopens what it saved (its reference and input):
 * the form says a newer version is available and what changes, and
 * "Upgrade" draws major 2 with the input migrated by the step's own
 * migration, and tells the embedder the new reference to save.
 */
vi.setConfig({ testTimeout: 90_000 });
let builder: ReferenceBuilder;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  builder = await startReferenceBuilder({ tenant: 'default' });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(builder.pageUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await builder?.stop();
});

const form = () => page.locator('#step-form');
const loaded = (reference: string) =>
  expect
    .poll(() =>
      form().evaluate(
        (element, step) => element.getAttribute('step') === step && !element.hasAttribute('aria-busy'),
        reference,
      ),
    )
    .toBe(true);

describe('upgrading a draft saved on an earlier major', () => {
  it('shows the newer version with what changes, and upgrades it to major 2 in one click', async () => {
    await page.getByRole('tab', { name: 'Steps', exact: true }).click();
    // The embedder reopens its saved draft: the reference it saved, then its input.
    await page.evaluate(() => {
      const step = { id: 'ticketing.list_tickets@1', integration: 'ticketing', title: 'List Tickets' };
      document.dispatchEvent(new CustomEvent('toolsteps-select', { detail: { step } }));
    });
    await loaded('ticketing.list_tickets@1');
    await form().evaluate((element: HTMLElement & { value: Record<string, unknown> }) => {
      element.value = { status: 'open', created_after: '2026-01-01', created_before: '2026-06-30' };
    });
    const notice = form().getByRole('region', { name: 'Newer version' });
    await expect.poll(() => notice.textContent()).toContain('A newer version is available');
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('2027-06-30');
    expect(text).toContain('2.0: The creation range is one `created: { after, before }` object');
    await screenshot(page, 'step-upgrade-notice-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'step-upgrade-notice-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    const changes = form().evaluate(
      (element) =>
        new Promise<{ step: string; reference: string; input: Record<string, unknown> }>((resolve) =>
          element.addEventListener('toolsteps-change', (event) => resolve((event as CustomEvent).detail), {
            once: true,
          }),
        ),
    );
    await notice.getByRole('button', { name: 'Upgrade' }).click();
    await loaded('ticketing.list_tickets@2');
    const changed = await changes;
    expect(changed).toMatchObject({ step: 'ticketing.list_tickets', reference: 'ticketing.list_tickets@2' });
    expect(changed.input).toMatchObject({
      status: 'open',
      created: { after: '2026-01-01', before: '2026-06-30' },
    });
    expect(changed.input).not.toHaveProperty('created_after');
    expect(await notice.count()).toBe(0);
    // The form shows major 2's fields, the range filled in its one `created` field.
    expect(await form().getByLabel('Created after', { exact: true }).count()).toBe(0);
    const created = form().getByLabel('Created', { exact: true });
    expect(JSON.parse(await created.inputValue())).toEqual({ after: '2026-01-01', before: '2026-06-30' });
    expect(await form().getByLabel('Status', { exact: true }).inputValue()).toBe('open');
    await screenshot(page, 'step-upgrade-done-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'step-upgrade-done-390');
  });
});

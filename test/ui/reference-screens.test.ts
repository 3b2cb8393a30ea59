import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fillCreateTicketForm, useConnectedPage } from './support/builder-page.js';
import {
  fullPageScreenshot,
  horizontalOverflow,
  screenshotFolder,
  seriousViolations,
} from './support/chromium.js';

/**
 * Every screen of the reference page at a desktop and a phone width, with
 * the default theme, checked with axe-core at each. The pictures go to
 * TOOLSTEPS_UI_DOC_IMAGES when it names a folder (docs/images/ui: run by
 * hand, then looked at before they are committed), else to the run's
 * screenshot folder.
 */
vi.setConfig({ testTimeout: 120_000 });
const WIDTHS = [1280, 390] as const;
const folder = process.env.TOOLSTEPS_UI_DOC_IMAGES
  ? path.resolve(process.env.TOOLSTEPS_UI_DOC_IMAGES)
  : screenshotFolder();
const session = useConnectedPage(() => mkdirSync(folder, { recursive: true }));

const tab = (name: string) => session.page.getByRole('tab', { name, exact: true });

async function shoot(screen: string, width: number): Promise<void> {
  // The focus ring of the last click is no part of the screen.
  await session.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const { overflow, culprits } = await horizontalOverflow(session.page);
  expect(overflow, `${screen} at ${width}px scrolls sideways from ${culprits.join('; ')}`).toBe(0);
  await fullPageScreenshot(session.page, path.join(folder, `reference-${screen}-${width}.png`));
  expect(await seriousViolations(session.page), `${screen} at ${width}px`).toEqual([]);
}

/** Unfolds the form's optional fields (a second round finds them unfolded already: they hold values). */
async function openMoreOptions(): Promise<void> {
  await session.page.locator('#step-form details.more').evaluate((details) => {
    (details as HTMLDetailsElement).open = true;
  });
}

describe.each(WIDTHS)('the reference page at %ipx', (width) => {
  beforeAll(async () => {
    await session.page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
  });

  it('search', async () => {
    await tab('Steps').click();
    const box = session.page.getByLabel('Search tool steps');
    await box.fill('');
    await box.fill('create ticket');
    await expect
      .poll(() => session.page.getByRole('button', { name: 'Create Ticket', exact: true }).count())
      .toBe(1);
    await shoot('search', width);
  });

  it('step form, filled and tested', async () => {
    await session.page.getByRole('button', { name: 'Create Ticket', exact: true }).click();
    const form = session.page.locator('#step-form');
    await fillCreateTicketForm(form);
    await shoot('step-form', width);
    await openMoreOptions();
    const tags = form.getByRole('combobox', { name: 'Tags', exact: true });
    await tags.fill('printer');
    await tags.press('Enter');
    await tags.press('Escape');
    await shoot('step-form-more-options', width);
    await form.getByLabel(/really write/).check();
    await form.getByRole('button', { name: 'Test step' }).click();
    await expect
      .poll(() => form.getByRole('region', { name: 'Test result' }).textContent())
      .toMatch(/Ran in/);
    await openMoreOptions();
    await shoot('step-tested', width);
  });

  it('trigger setup, tested', async () => {
    // A fresh page: the empty setup as a person first meets it, at this width too.
    await session.page.reload();
    await tab('Triggers').click();
    const setup = session.page.locator('#trigger-setup');
    // Nothing chosen: no account to pick, nothing to connect yet.
    await expect
      .poll(() => setup.getByLabel('Connection', { exact: true }).locator('option').allTextContents())
      .toEqual(['Choose a provider first']);
    expect(await setup.getByRole('button', { name: 'Connect new account' }).isDisabled()).toBe(true);
    await shoot('trigger-empty', width);
    await setup.getByLabel('Provider', { exact: true }).selectOption({ label: 'Ticketing (Zendesk)' });
    await setup.getByLabel('Event', { exact: true }).selectOption({ label: 'Ticket status changed' });
    await expect.poll(() => setup.getByRole('button', { name: 'Send test event' }).isEnabled()).toBe(true);
    await setup.getByRole('button', { name: 'Send test event' }).click();
    await expect
      .poll(() => setup.getByRole('region', { name: 'Test result' }).textContent())
      .toMatch(/start the agent/);
    await shoot('trigger-tested', width);
  });

  it('connections', async () => {
    await tab('Connections').click();
    await shoot('connections', width);
  });
});

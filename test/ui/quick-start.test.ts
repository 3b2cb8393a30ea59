import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fillCreateTicketForm, followRedirectSignIn, SIGN_IN_TEST_MS } from './support/builder-page.js';
import {
  type Browser,
  horizontalOverflow,
  launchChromium,
  screenshot,
  seriousViolations,
} from './support/chromium.js';
import { type EmbedderSite, startEmbedderSite } from './support/embedder-site.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * The embedding quick start (docs/embedding-quick-start.md) as an embedder
 * runs it: the docs' plain HTML page and React page, unchanged, served by
 * the embedder's own site (another origin than the API's, on its site) with
 * a backend that mints short-lived tokens. A redirect sign-in comes back to
 * the same step with the new account chosen; a wrong key is refused at
 * save; accounts are named, renamed and disconnected from the picker; the
 * test result reaches the mapper; a token about to expire is renewed.
 */
vi.setConfig({ testTimeout: 120_000 });
let builder: ReferenceBuilder;
let browser: Browser;
let site: EmbedderSite;

beforeAll(async () => {
  // The embedder's site first: the API must know its origin to let its pages in.
  site = await startEmbedderSite({ sameSite: true });
  [builder, browser] = await Promise.all([
    startReferenceBuilder({ tenant: 'default', allowedOrigins: [site.origin] }),
    launchChromium(),
  ]);
  site.serve(builder);
}, 120_000);

afterAll(() => Promise.all([browser?.close(), builder?.stop(), site?.stop()]));

/** Records every kit event the page hears, from its first script on, in `window.kitEvents`. */
async function recordingPage(width = 1280): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.addInitScript(() => {
    const seen: { name: string; detail: unknown }[] = [];
    (window as unknown as { kitEvents: typeof seen }).kitEvents = seen;
    for (const name of ['toolsteps-select', 'toolsteps-connected', 'toolsteps-change']) {
      document.addEventListener(name, (event) => {
        seen.push({ name, detail: JSON.parse(JSON.stringify((event as CustomEvent).detail)) });
      });
    }
  });
  return page;
}

const eventsOf = (page: Page, name: string) =>
  page.evaluate(
    (wanted) =>
      (window as unknown as { kitEvents: { name: string; detail: unknown }[] }).kitEvents.filter(
        (event) => event.name === wanted,
      ),
    name,
  ) as Promise<{ name: string; detail: Record<string, unknown> }[]>;

async function choose(page: Page, query: string, title: string): Promise<void> {
  await page.getByLabel('Search tool steps').fill(query);
  await page.getByRole('button', { name: title, exact: true }).click();
}

/** Screenshots a screen once it is known not to scroll sideways at the page's width (a phone's 390 px too). */
async function shoot(page: Page, name: string): Promise<void> {
  const { overflow, culprits } = await horizontalOverflow(page);
  expect(overflow, `${name} scrolls sideways from ${culprits.join('; ')}`).toBe(0);
  await screenshot(page, name);
}

const picker = (page: Page) => page.locator('toolsteps-connection-picker');

/** The picker's dropdown's option texts. */
const accounts = (scope: Locator) => scope.getByLabel('Connection').locator('option').allTextContents();

describe('the embedding quick start in Chromium', () => {
  it(
    'plain HTML: a redirect sign-in comes back to the same step with the new account chosen, and a test fills the mapper',
    async () => {
      const page = await recordingPage();
      await page.goto(`${site.origin}/embed.html`);
      await choose(page, 'list users', 'List Users');
      await expect
        .poll(() => page.locator('#picked').textContent())
        .toBe('List Users (ticketing.list_users)');
      await expect.poll(() => accounts(picker(page))).toEqual(['No account yet']);
      // The sandbox's settings preset the account's site: the sign-in starts at once, with nothing to fill.
      await picker(page).getByRole('button', { name: 'Connect new account' }).click();
      // The page leaves for the sandbox's sign-in, and the API's callback brings it back to embed.html.
      const back = (url: URL) => url.origin === site.origin && url.searchParams.has('toolsteps_flow');
      await followRedirectSignIn(page, back, new URL(builder.sandbox.url).origin);
      // The kit chose the same step again and the new account, with no help from the page.
      await expect
        .poll(() => page.locator('#picked').textContent())
        .toBe('List Users (ticketing.list_users)');
      const chosen = picker(page).getByLabel('Connection');
      await expect.poll(() => chosen.inputValue()).not.toBe('');
      // Named for whom it signed in as (the provider's "Show Self"), with its site.
      expect(await chosen.locator('option:checked').textContent()).toMatch(/^\S+@acme\.\S+$/);
      expect(await picker(page).getByText('Working.').count()).toBe(1);
      const connected = await eventsOf(page, 'toolsteps-connected');
      expect(connected).toEqual([
        {
          name: 'toolsteps-connected',
          detail: expect.objectContaining({
            integration: 'ticketing',
            connection: expect.objectContaining({ label: expect.stringMatching(/@/) }),
          }),
        },
      ]);
      expect(await page.locator('#form').getAttribute('connection')).toBe(await chosen.inputValue());
      // The callback's parameters leave the address once the picker has read the flow.
      expect(new URL(page.url()).search).toBe('');
      await shoot(page, 'quick-start-returned-1280');

      // The test result reaches the page and the mapper, which then shows the real output.
      await page.locator('#form').getByRole('button', { name: 'Test step' }).click();
      await expect
        .poll(() => page.locator('#result').textContent())
        .toMatch(/^Test passed: \d+ variables mapped$/);
      const mapper = page.locator('#mapper');
      await expect
        .poll(() => mapper.getByRole('button', { name: /^Add variable for \$\.users/ }).count())
        .toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, 'quick-start-tested-1280');
      await page.close();
    },
    SIGN_IN_TEST_MS,
  );

  it('refuses a wrong API key at save, then names, renames and disconnects an account', async () => {
    for (const width of [1280, 390]) {
      const page = await recordingPage(width);
      await page.goto(`${site.origin}/embed.html`);
      await choose(page, 'find contact', 'Find Contact');
      const accountPicker = picker(page);
      await accountPicker.getByRole('button', { name: 'Connect new account' }).click();
      await accountPicker.getByLabel('API key').fill('not-a-key-of-this-account');
      await accountPicker.getByRole('button', { name: 'Save API key' }).click();
      const alert = accountPicker.getByRole('alert');
      await expect
        .poll(() => alert.textContent())
        .toBe(
          'Contact data (Lusha) did not accept this API key. Check that you copied all of it and that it is still active.',
        );
      expect(await accounts(accountPicker)).toEqual(['No account yet']);
      await shoot(page, `account-picker-key-refused-${width}`);

      // The form stays open: the right key, named.
      await accountPicker.getByLabel('Account name (optional)').fill('Marketing');
      await accountPicker.getByLabel('API key').fill(builder.contactDataKey);
      await accountPicker.getByRole('button', { name: 'Save API key' }).click();
      await expect.poll(() => accounts(accountPicker)).toEqual(['Choose an account', 'Marketing']);
      expect(await accountPicker.getByText('Working.').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `account-picker-connected-${width}`);

      await accountPicker.getByRole('button', { name: 'Rename' }).click();
      await accountPicker.getByLabel('Account name').fill('Sales team');
      await accountPicker.getByRole('button', { name: 'Save name' }).click();
      await expect.poll(() => accounts(accountPicker)).toEqual(['Choose an account', 'Sales team']);

      await accountPicker.getByRole('button', { name: 'Disconnect' }).click();
      await expect.poll(() => accountPicker.getByText(/^Disconnect Sales team\?/).count()).toBe(1);
      await shoot(page, `account-picker-disconnect-${width}`);
      await accountPicker.getByRole('button', { name: 'Disconnect account' }).click();
      await expect.poll(() => accounts(accountPicker)).toEqual(['No account yet']);
      await page.close();
    }
  });

  it('React: renders, searches, and renews a token about to expire from the page’s backend', async () => {
    // Tokens of 60 seconds: the page renews each a minute before it ends, so before every request.
    site.serve(builder, 60);
    try {
      for (const width of [1280, 390]) {
        const page = await recordingPage(width);
        const before = site.sessionsMinted();
        await page.goto(`${site.origin}/react.html`);
        await choose(page, 'list users', 'List Users');
        await expect.poll(() => accounts(picker(page))).toContainEqual(expect.stringMatching(/@/));
        expect(site.sessionsMinted() - before).toBeGreaterThan(1);
        await shoot(page, `quick-start-react-${width}`);
        await page.close();
      }
    } finally {
      site.serve(builder);
    }
  });

  it('plain HTML at a phone’s width', async () => {
    const page = await recordingPage(390);
    await page.goto(`${site.origin}/embed.html`);
    await choose(page, 'list users', 'List Users');
    await expect.poll(() => picker(page).getByLabel('Connection').inputValue()).not.toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'quick-start-390');
    await page.close();
  });

  it('plain HTML, the longest form at a desktop’s and a phone’s width: search, form, more options, tested, none scrolling sideways', async () => {
    for (const width of [1280, 390]) {
      const page = await recordingPage(width);
      await page.goto(`${site.origin}/embed.html`);
      // A write step with lists, searches and dates: the most the kit draws.
      await page.getByLabel('Search tool steps').fill('create ticket');
      const hit = page.getByRole('button', { name: 'Create Ticket', exact: true });
      await expect.poll(() => hit.count()).toBe(1);
      await shoot(page, `quick-start-search-${width}`);
      await hit.click();
      const form = page.locator('#form');
      await fillCreateTicketForm(form);
      await shoot(page, `quick-start-step-form-${width}`);
      await form.locator('details.more').evaluate((details) => {
        (details as HTMLDetailsElement).open = true;
      });
      await shoot(page, `quick-start-more-options-${width}`);
      await form.getByLabel(/really write/).check();
      await form.getByRole('button', { name: 'Test step' }).click();
      await expect.poll(() => page.locator('#result').textContent()).toMatch(/^Test passed/);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `quick-start-create-ticket-tested-${width}`);
      await page.close();
    }
  });
});

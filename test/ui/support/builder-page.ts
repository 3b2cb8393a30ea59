import { setTimeout as delay } from 'node:timers/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './chromium.js';
import { loggedNavigation } from './navigation-log.js';
import { type ReferenceBuilder, startReferenceBuilder } from './reference-builder.js';

/** Signs in on the sandbox's allow screen when it shows one (the sandbox user always says yes). */
export async function allowIfAsked(target: Page): Promise<boolean> {
  const allow = target.getByRole('button', { name: /^(allow|authorize|approve)/i });
  if (!(await allow.count())) return false;
  await allow.first().click();
  return true;
}

/** Fills the connect form's fields the integration asks for, then submits it, when it shows one. */
export async function submitConnectForm(scope: Locator, submit: string): Promise<void> {
  const form = scope.getByRole('group');
  if (!(await form.count())) return;
  const subdomain = form.getByLabel('Subdomain');
  if (await subdomain.count()) await subdomain.fill('acme');
  await form.getByRole('button', { name: submit }).click();
}

/**
 * Follows a redirect sign-in until the page is back (`back`), through the
 * provider's allow screen when it shows one. The return is looked for in
 * the page's navigation log, never in the page's address alone: the kit
 * takes the callback's parameters out of the address as soon as it has
 * read them, so a look at the address can miss a return that already
 * happened and wait for a navigation that never comes.
 */
export async function followRedirectSignIn(
  page: Page,
  back: (url: URL) => boolean,
  providerOrigin: string,
): Promise<void> {
  const deadline = Date.now() + 2 * SIGN_IN_WAIT_MS;
  let allowed = false;
  while (!loggedNavigation(page, back, true)) {
    if (Date.now() > deadline) await explainedFailure(page);
    if (!allowed && loggedNavigation(page, (url) => url.origin === providerOrigin, false)) {
      allowed = await allowIfAsked(page).catch(() => false);
    }
    await delay(100);
  }
  await page.waitForLoadState();
}

/**
 * How long one leg of a sign-in may take: two servers and a page load, in a
 * suite that runs three files and their browsers at once. Past both legs,
 * the failure says where the page was and what it said.
 */
const SIGN_IN_WAIT_MS = 60_000;

/** A test that goes through a redirect sign-in: both legs of it, and the rest of the test. */
export const SIGN_IN_TEST_MS = 2 * SIGN_IN_WAIT_MS + 30_000;

/** Fails naming the page's address and its alerts and statuses. */
async function explainedFailure(page: Page): Promise<never> {
  const said = await page
    .locator('[role=alert], [role=status]')
    .allInnerTexts()
    .catch(() => []);
  throw new Error(
    `the sign-in did not come back: the page is at ${page.url()}; it says ${JSON.stringify(said.filter(Boolean))}`,
  );
}

/** Follows a redirect sign-in started from the reference page back to it. */
export async function returnFromSignIn(page: Page, builder: ReferenceBuilder): Promise<void> {
  const back = (url: URL) => url.origin === builder.origin && url.searchParams.has('toolsteps_connect');
  await followRedirectSignIn(page, back, new URL(builder.sandbox.url).origin);
}

/**
 * Connects the sandbox's ticketing account from the reference page's
 * Connections tab, by redirect. Resolves once the page says it is connected.
 */
export async function connectTicketing(page: Page, builder: ReferenceBuilder): Promise<void> {
  await page.getByRole('tab', { name: 'Connections', exact: true }).click();
  const ticketing = page.getByRole('region', { name: /^Ticketing/ });
  await ticketing.getByRole('button', { name: 'Connect new account' }).click();
  await submitConnectForm(ticketing, 'Continue to sign in');
  await returnFromSignIn(page, builder);
  const again = page.getByRole('region', { name: /^Ticketing/ });
  // Called from beforeAll too, where expect.poll cannot run: the locator waits instead.
  await again
    .getByRole('status')
    .filter({ hasText: /^Connected / })
    .first()
    .waitFor();
}

/** The reference page in Chromium, its tenant's ticketing account connected: what a test of the builder's forms starts from. */
export async function startConnectedPage(): Promise<{
  builder: ReferenceBuilder;
  page: Page;
  stop(): Promise<void>;
}> {
  const builder = await startReferenceBuilder({ tenant: 'default' });
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.goto(builder.pageUrl);
  await connectTicketing(page, builder);
  return {
    builder,
    page,
    stop: async () => {
      await browser.close();
      await builder.stop();
    },
  };
}

/**
 * Registers the hooks of a test file that works on one connected reference
 * page (startConnectedPage before all, stopped after all), and answers the page.
 */
export function useConnectedPage(before?: () => void): { readonly page: Page } {
  let started: Awaited<ReturnType<typeof startConnectedPage>> | undefined;
  beforeAll(async () => {
    before?.();
    started = await startConnectedPage();
  }, SIGN_IN_TEST_MS);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get page() {
      if (!started) throw new Error('the connected page is not started yet');
      return started.page;
    },
  };
}

/**
 * Waits until a Create Ticket step form has its account chosen and its form
 * loaded (no `aria-busy`), then fills the two required fields as the
 * screens show them.
 */
export async function fillCreateTicketForm(form: Locator): Promise<void> {
  await expect
    .poll(() =>
      form.evaluate(
        (element) => Boolean(element.getAttribute('connection')) && !element.hasAttribute('aria-busy'),
      ),
    )
    .toBe(true);
  await form.getByLabel('Subject', { exact: true }).fill('Printer on fire');
  await form.getByLabel('Description', { exact: true }).fill('Smoke from tray 2.');
}

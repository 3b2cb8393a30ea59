import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium.js';
import { type ReferenceBuilder, startReferenceBuilder } from './reference-builder.js';

/** Signs in on the sandbox's allow screen when it shows one (the sandbox user always says yes). */
export async function allowIfAsked(target: Page): Promise<void> {
  const allow = target.getByRole('button', { name: /^(allow|authorize|approve)/i });
  if (await allow.count()) await allow.first().click();
}

/** Fills the connect form's fields the integration asks for, then submits it, when it shows one. */
export async function submitConnectForm(scope: Locator, submit: string): Promise<void> {
  const form = scope.getByRole('group');
  if (!(await form.count())) return;
  const subdomain = form.getByLabel('Subdomain');
  if (await subdomain.count()) await subdomain.fill('acme');
  await form.getByRole('button', { name: submit }).click();
}

/** Follows a redirect sign-in: the provider's sign-in and allow screen, when it shows one, and back to the builder's page. */
export async function returnFromSignIn(page: Page, builder: ReferenceBuilder): Promise<void> {
  const back = (url: URL) => url.origin === builder.origin && url.searchParams.has('toolsteps_connect');
  await page.waitForURL((url) => back(url) || url.origin === builder.sandbox.url);
  if (!back(new URL(page.url()))) {
    await allowIfAsked(page);
    await page.waitForURL(back);
  }
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
  }, 120_000);
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

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromiumForContexts } from './support/chromium.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * A sign-in belongs to the browser that started it. A member of tenant
 * `acme` starts connecting an account on the reference page, and instead of
 * allowing it sends the provider's consent link to someone else: that
 * person's browser (another context: its own cookies) allows access, and
 * the callback must refuse, so their account never becomes acme's. The same
 * sign-ins in one browser still connect, by redirect and in a pop-up.
 */
vi.setConfig({ testTimeout: 90_000 });
let builder: ReferenceBuilder;
let browser: Browser;

beforeAll(async () => {
  builder = await startReferenceBuilder({ tenant: 'acme' });
  browser = await launchChromiumForContexts();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await builder?.stop();
});

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  context.setDefaultTimeout(20_000);
  return context;
}

/** The tenant's connections of `integration`, as the API holds them. */
async function connectionsOf(tenant: string, integration: string): Promise<string[]> {
  const answer = await fetch(`${builder.origin}/v1/connections?integration=${integration}`, {
    headers: { authorization: `Bearer ${builder.mintToken(tenant)}` },
  });
  const { connections } = (await answer.json()) as { connections: { id: string }[] };
  return connections.map((connection) => connection.id);
}

/** Opens the page of `tenant`, and clicks "Connect new account" in the integration's section (filling its form). */
async function clickConnect(page: Page, tenant: string, section: RegExp): Promise<Locator> {
  await page.goto(builder.pageUrlFor(tenant));
  await page.getByRole('tab', { name: 'Connections', exact: true }).click();
  const region = page.getByRole('region', { name: section });
  await region.getByRole('button', { name: 'Connect new account' }).click();
  const form = region.getByRole('group');
  if (await form.count()) {
    const subdomain = form.getByLabel('Subdomain');
    if (await subdomain.count()) await subdomain.fill('acme');
    await form.getByRole('button', { name: 'Continue to sign in' }).click();
  }
  return region;
}

const KINDS = [
  { kind: 'redirect', integration: 'ticketing', section: /^Ticketing/ },
  { kind: 'popup', integration: 'deployments', section: /^Deployments/ },
] as const;

describe('a sign-in bound to the browser that started it, in Chromium', () => {
  for (const { kind, integration, section } of KINDS) {
    it(`${kind}: a consent link allowed in another browser connects nothing, and the callback says to restart`, async () => {
      const starter = await newContext();
      const other = await newContext();
      try {
        // The starting browser never reaches the provider: its member keeps the consent link instead.
        let consentLink: string | undefined;
        const provider = new URL(builder.sandbox.url).origin;
        await starter.route(
          (url) => url.origin === provider,
          async (route) => {
            consentLink = route.request().url();
            await route.abort();
          },
        );
        const page = await starter.newPage();
        const region = await clickConnect(page, 'acme', section);
        await expect.poll(() => consentLink, { timeout: 20_000 }).toBeDefined();

        const stranger = await other.newPage();
        const landed = await stranger.goto(consentLink!);
        expect(landed?.url()).toMatch(new RegExp(`^${builder.origin}/v1/oauth/callback\\?`));
        expect(landed?.status()).toBe(400);
        expect(await stranger.locator('p').textContent()).toBe(
          'Not connected: this sign-in was not started in this browser. Restart the sign-in from the page that started it.',
        );
        expect(await connectionsOf('acme', integration)).toEqual([]);
        if (kind === 'popup') {
          // The starting page, still watching its pop-up, hears that the sign-in failed and why.
          await expect
            .poll(() => region.getByRole('alert').first().textContent())
            .toMatch(/another browser than the one that started it/);
        }
      } finally {
        await starter.close();
        await other.close();
      }
    });

    it(`${kind}: the same sign-in in one browser connects`, async () => {
      const context = await newContext();
      try {
        const page = await context.newPage();
        const popup = kind === 'popup' ? page.waitForEvent('popup') : undefined;
        await clickConnect(page, 'globex', section);
        await popup;
        if (kind === 'redirect') {
          await page.waitForURL(
            (url) => url.origin === builder.origin && url.searchParams.has('toolsteps_connect'),
          );
        }
        const settled = page.getByRole('region', { name: section }).getByRole('status').first();
        await expect.poll(() => settled.textContent()).toMatch(/^Connected /);
        expect(await connectionsOf('globex', integration)).toHaveLength(1);
      } finally {
        await context.close();
      }
    });
  }
});

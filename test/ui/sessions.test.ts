import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Browser, launchChromium, screenshot, seriousViolations } from './support/chromium.js';
import { type EmbedderSite, startEmbedderSite } from './support/embedder-site.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * What a page sees with the token it holds and from the origin it is on:
 * another tenant's token sees none of this tenant's accounts, an expired
 * token gets a clear sentence, a foreign origin gets nothing, and the docs'
 * plain HTML and React examples work from an allowed one.
 */
vi.setConfig({ testTimeout: 90_000 });
let builder: ReferenceBuilder;
let browser: Browser;
let allowed: EmbedderSite;
let foreign: EmbedderSite;

beforeAll(async () => {
  // Two embedders' sites on `localhost` (another origin than the API's 127.0.0.1): one allowed, one not.
  allowed = await startEmbedderSite();
  foreign = await startEmbedderSite();
  builder = await startReferenceBuilder({ tenant: 'default', allowedOrigins: [allowed.origin] });
  allowed.serve(builder);
  foreign.serve(builder);
  await builder.connectContactData('default');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await builder?.stop();
  await allowed?.stop();
  await foreign?.stop();
});

/**
 * One of the docs' examples, opened on the allowed origin: a search for
 * `query` offers Create Ticket, and picking it shows the step's form (its
 * Subject field). The page, still open.
 */
async function pickCreateTicketIn(example: string, query: string) {
  const page = await browser.context.newPage();
  await page.goto(`${allowed.origin}/${example}`);
  await page.getByLabel('Search tool steps').fill(query);
  await page.getByRole('button', { name: 'Create Ticket', exact: true }).click();
  await expect.poll(() => page.getByLabel('Subject', { exact: true }).count()).toBe(1);
  return page;
}

describe('sessions and origins in Chromium', () => {
  it("sees this tenant's account with its token, and nothing of it with another tenant's", async () => {
    const own = await browser.context.newPage();
    await own.goto(builder.pageUrlFor('default'));
    await own.getByRole('tab', { name: 'Connections' }).click();
    const mine = own.getByRole('region', { name: /^Contact data/ }).getByLabel('Connection');
    await expect.poll(() => mine.locator('option').count()).toBe(2);
    await own.close();

    const other = await browser.context.newPage();
    await other.goto(builder.pageUrlFor('acme-other'));
    await other.getByRole('tab', { name: 'Connections' }).click();
    const theirs = other.getByRole('region', { name: /^Contact data/ }).getByLabel('Connection');
    await expect.poll(() => theirs.locator('option').allTextContents()).toEqual(['No account yet']);
    await other.close();
  });

  it('says the session expired, in words, when the token has', async () => {
    const page = await browser.context.newPage();
    await page.goto(builder.pageUrlFor('default', { expired: true }));
    await page.getByLabel('Search tool steps').fill('zendesk');
    await expect
      .poll(() => page.locator('#session').textContent())
      .toMatch(
        /^Your builder session has expired( or is not valid)?\. Open the builder again to get a new session\.$/,
      );
    // The element whose request was refused says it too, where the person is looking.
    const search = page.locator('toolsteps-step-search').getByRole('alert');
    await expect.poll(() => search.textContent()).toMatch(/^Your builder session has expired/);
    await screenshot(page, 'expired-token');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('the docs’ plain HTML example works from an allowed origin', async () => {
    const page = await pickCreateTicketIn('embed.html', 'zendesk');
    await expect
      .poll(() => page.locator('#picked').textContent())
      .toBe('Create Ticket (ticketing.create_ticket)');
    await screenshot(page, 'embed-html');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('the docs’ React example renders and searches from an allowed origin', async () => {
    const page = await pickCreateTicketIn('react.html', 'create ticket');
    await page.close();
  });

  it('a page on a foreign origin is refused', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${foreign.origin}/embed.html`);
    await page.getByLabel('Search tool steps').fill('zendesk');
    const status = page.locator('toolsteps-step-search').getByRole('alert');
    await expect
      .poll(() => status.textContent())
      .toMatch(/could not be reached \(or refused this page's origin\)/);
    expect(await page.getByRole('button', { name: 'Create Ticket', exact: true }).count()).toBe(0);
    await page.close();
  });
});

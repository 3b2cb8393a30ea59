import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/model/clock.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import type { HealthChange } from '../../src/runtime/health-change.js';
import { keepAlivePass } from '../../src/runtime/keep-alive-pass.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { integrations } from '../../steps/index.js';
import { connectTicketing, returnFromSignIn, SIGN_IN_TEST_MS } from './support/builder-page.js';
import { type Browser, horizontalOverflow, launchChromium, screenshot } from './support/chromium.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * Issue 40's "done when", in the browser: a ticketing account left idle past
 * its refresh token's life (30 days at the sandbox) is found by a keep-alive
 * pass and marked needs_reconnect; the reference page then offers
 * "Reconnect" on exactly that account, not on its healthy neighbour; the
 * reconnect (a redirect sign-in) replaces the credentials of the same
 * connection, which is healthy again. The sandbox and the API share a manual
 * clock; the page's session tokens keep the real one.
 */
vi.setConfig({ testTimeout: 180_000 });
const DAY_MS = 86_400_000;
const TENANT = 'default';
const clock = new ManualClock(Date.UTC(2026, 0, 1));
let builder: ReferenceBuilder;
let browser: Browser;

beforeAll(async () => {
  [builder, browser] = await Promise.all([
    startReferenceBuilder({ tenant: TENANT, clock }),
    launchChromium(),
  ]);
}, 120_000);

afterAll(() => Promise.all([browser?.close(), builder?.stop()]));

interface ListedConnection {
  id: string;
  label: string | null;
  health: { state: string; reason: string | null };
}

/** The tenant's ticketing accounts as the builder API lists them. */
async function listed(): Promise<ListedConnection[]> {
  const answer = await fetch(`${builder.origin}/v1/connections?integration=ticketing`, {
    headers: { authorization: `Bearer ${builder.mintToken(TENANT)}` },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { connections: ListedConnection[] }).connections;
}

/** Names an account through the API, so the two accounts of one site read apart in the pictures. */
async function rename(id: string, label: string): Promise<void> {
  const answer = await fetch(`${builder.origin}/v1/connections/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${builder.mintToken(TENANT)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  expect(answer.status).toBe(200);
}

/** The page's Ticketing picker on the Connections tab, from a fresh load (what a person opening it sees). */
async function ticketingPicker(page: Page) {
  await page.goto('about:blank');
  await page.goto(builder.pageUrlFor(TENANT));
  await page.getByRole('tab', { name: 'Connections', exact: true }).click();
  const picker = page.getByRole('region', { name: /^Ticketing/ }).locator('toolsteps-connection-picker');
  await expect.poll(() => picker.getByLabel('Connection').locator('option').count()).toBe(3);
  return picker;
}

async function shootAt(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    const { overflow, culprits } = await horizontalOverflow(page);
    expect(overflow, `${name} at ${width}px scrolls sideways from ${culprits.join('; ')}`).toBe(0);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('an expired refresh token in the reference page', () => {
  it(
    'a keep-alive pass marks it needs_reconnect, the picker offers Reconnect on that account only, and reconnecting keeps the connection',
    async () => {
      const page = await browser.context.newPage();
      await page.goto(builder.pageUrl);
      // Day 0: the account that will be forgotten; day 24: a second one, used since.
      await connectTicketing(page, builder);
      const [forgotten] = (await listed()) as [ListedConnection];
      clock.advance(24 * DAY_MS);
      await connectTicketing(page, builder);
      const used = (await listed()).find((one) => one.id !== forgotten.id) as ListedConnection;
      expect(used).toBeDefined();
      await rename(forgotten.id, 'Support desk');
      await rename(used.id, 'Billing desk');
      // Six days left on the first: expiring, and no keep-alive runs in this tenant's week.
      expect((await listed()).map((one) => one.health.state)).toEqual(['expiring', 'healthy']);

      // Day 31: the first account's refresh token (30 days at the sandbox) has ended; a worker's pass finds it.
      clock.advance(7 * DAY_MS);
      const stores = builder.tenants.forTenant(parseTenantId(TENANT));
      const worker = new Runtime({ tenant: parseTenantId(TENANT), store: stores.connections, clock });
      const told: HealthChange[] = [];
      const report = await keepAlivePass(worker, {
        integration: (id) => integrations.find((known) => known.id === id),
        onHealthChange: (change) => void told.push(change),
      });
      expect(report.health).toEqual({ [forgotten.id]: 'needs_reconnect', [used.id]: 'healthy' });
      expect(told.map((change) => [change.type, change.connection.id])).toEqual([
        ['connection.needs_reconnect', forgotten.id],
      ]);
      expect((await stores.connections.get(forgotten.id))?.health?.state).toBe('needs_reconnect');

      // The page: the forgotten account says so and offers Reconnect; its neighbour does not.
      const picker = await ticketingPicker(page);
      const select = picker.getByLabel('Connection');
      const reconnect = picker.getByRole('button', { name: 'Reconnect' });
      const health = picker.locator('[part=health]');
      await select.selectOption(used.id);
      expect(await health.textContent()).toBe('Working.');
      expect(await reconnect.isVisible()).toBe(false);
      await select.selectOption(forgotten.id);
      expect(await select.locator('option:checked').textContent()).toBe(
        'Support desk (acme) (signed out: reconnect)',
      );
      expect(await health.textContent()).toBe('Signed out at the provider: reconnect it to use it again.');
      expect(await reconnect.isVisible()).toBe(true);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shootAt(page, 'connection-needs-reconnect');

      // Reconnect: the redirect sign-in, back to the page, which finishes it itself.
      await reconnect.click();
      await returnFromSignIn(page, builder);
      await expect
        .poll(() => picker.getByRole('status').textContent())
        .toBe('Connected Support desk (acme).');
      expect(await select.inputValue()).toBe(forgotten.id);
      expect(await health.textContent()).toBe('Working.');
      expect(await reconnect.isVisible()).toBe(false);
      // The same connection, its credentials replaced: no second account, its name kept, healthy.
      const after = await listed();
      expect(after.map((one) => [one.id, one.label, one.health.state]).sort()).toEqual(
        [
          [forgotten.id, 'Support desk', 'healthy'],
          [used.id, 'Billing desk', 'healthy'],
        ].sort(),
      );
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shootAt(page, 'connection-reconnected');

      // The next pass finds it healthy: it tells that once (back to healthy), and the failure never again.
      const next = await keepAlivePass(worker, {
        integration: (id) => integrations.find((known) => known.id === id),
        onHealthChange: (change) => void told.push(change),
      });
      expect(next.health[forgotten.id]).toBe('healthy');
      await keepAlivePass(worker, {
        integration: (id) => integrations.find((known) => known.id === id),
        onHealthChange: (change) => void told.push(change),
      });
      expect(told.map((change) => [change.type, change.connection.id])).toEqual([
        ['connection.needs_reconnect', forgotten.id],
        ['connection.healthy', forgotten.id],
      ]);
      await page.close();
    },
    SIGN_IN_TEST_MS,
  );
});

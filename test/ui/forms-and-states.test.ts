import type { Route } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useConnectedPage } from './support/builder-page.js';
import { seriousViolations } from './support/chromium.js';

/**
 * Forms people finish and states that say what is happening (issue 38,
 * items 4 and 5): the reference page in Chromium against the sandbox, with
 * the builder API slowed down where a test needs to see what the page shows
 * while it waits, and what crossed the wire read from the requests.
 */
vi.setConfig({ testTimeout: 90_000 });
const session = useConnectedPage();

const tab = (name: string) => session.page.getByRole('tab', { name, exact: true });
const form = () => session.page.locator('#step-form');
const search = () => session.page.locator('toolsteps-step-search');
const setup = () => session.page.locator('#trigger-setup');

/** Holds every answer of the API routes `pattern` matches until `release` is called. */
async function holdAnswers(pattern: (url: URL) => boolean): Promise<{ release(): Promise<void> }> {
  const held: Route[] = [];
  let holding = true;
  const handler = (route: Route) => {
    if (holding) held.push(route);
    else void route.continue();
  };
  await session.page.route((url) => pattern(url), handler);
  return {
    release: async () => {
      holding = false;
      await session.page.unroute((url) => pattern(url), handler);
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** Chooses a step through the search bar, and waits for its form for the chosen account. */
async function openStep(query: string, title: string): Promise<void> {
  await tab('Steps').click();
  await session.page.getByLabel('Search tool steps').fill(query);
  await session.page.getByRole('button', { name: title, exact: true }).click();
  await expect
    .poll(() =>
      form().evaluate(
        (element) => Boolean(element.getAttribute('connection')) && !element.hasAttribute('aria-busy'),
      ),
    )
    .toBe(true);
}

describe('forms people finish, states that say what is happening', () => {
  it('shows Searching…, Loading the form… and Loading choices… while a slow API answers', async () => {
    await tab('Steps').click();
    const searching = await holdAnswers((url) => url.pathname === '/v1/steps' && url.searchParams.has('q'));
    await session.page.getByLabel('Search tool steps').fill('create ticket');
    await expect.poll(() => search().getByText('Searching…').isVisible()).toBe(true);
    await searching.release();
    await expect.poll(() => search().getByText('Searching…').count()).toBe(0);

    const describing = await holdAnswers((url) => url.pathname === '/v1/steps/ticketing.create_ticket');
    const options = await holdAnswers((url) => url.pathname.endsWith('/options'));
    await session.page.getByRole('button', { name: 'Create Ticket', exact: true }).click();
    await expect.poll(() => form().getByText('Loading the form…').isVisible()).toBe(true);
    expect(await form().getAttribute('aria-busy')).toBe('true');
    await describing.release();
    const assignee = form().getByLabel('Assignee', { exact: true });
    await expect.poll(() => assignee.locator('option').first().textContent()).toBe('Loading choices…');
    await options.release();
    await expect.poll(() => assignee.locator('option').count()).toBeGreaterThan(1);
    expect(await assignee.locator('option').first().textContent()).toBe('Not set');
  });

  it('ranks Create Ticket first for "create ticket", shows no other provider’s Create step, and closes on choice', async () => {
    await tab('Steps').click();
    const box = session.page.getByLabel('Search tool steps');
    await box.fill('');
    await box.fill('create ticket');
    const results = search().getByRole('list', { name: 'Tool steps found' });
    await expect.poll(() => results.getByRole('button').first().textContent()).toBe('Create Ticket');
    const titles = await results.getByRole('button').allTextContents();
    expect(titles).not.toContain('Create Deployment');
    expect(titles).not.toContain('Get Organization');
    await results.getByRole('button', { name: 'Create Ticket', exact: true }).click();
    expect(await results.isVisible()).toBe(false);
    // Typing again opens the results again.
    await box.press('ArrowDown');
    expect(await results.isVisible()).toBe(true);
    await results.getByRole('button', { name: 'Create Ticket', exact: true }).click();
    expect(await results.isVisible()).toBe(false);
  });

  it('sends tags and followers as lists, leaves untouched fields out, one Insert variable, Test step in view', async () => {
    await openStep('create ticket', 'Create Ticket');
    const step = form();
    // Required fields first; the optional ones folded until asked for.
    expect(await step.getByLabel('Priority', { exact: true }).isVisible()).toBe(false);
    await step.getByLabel('Subject', { exact: true }).fill('Printer on fire');
    await step.getByLabel('Description', { exact: true }).fill('Smoke from tray 2.');
    await step.getByText(/^More options/).click();
    const tags = step.getByRole('combobox', { name: 'Tags', exact: true });
    await tags.fill('vip');
    await tags.press('Enter');
    await tags.fill('printer');
    await tags.press('Enter');
    expect(await step.getByRole('list', { name: 'Tags chosen' }).getByRole('listitem').count()).toBe(2);
    const followers = step.getByRole('combobox', { name: 'Followers', exact: true });
    await followers.click();
    const choices = step.getByRole('listbox', { name: 'Followers choices' });
    await expect.poll(() => choices.getByRole('option').count()).toBeGreaterThan(1);
    await choices.getByRole('option').nth(0).click();
    await choices.getByRole('option').nth(1).click();
    expect(await choices.getByRole('option', { selected: true }).count()).toBe(2);
    await followers.press('Escape');
    expect(await choices.isVisible()).toBe(false);

    // One Insert variable control, for the field focused last.
    expect(await step.getByRole('combobox', { name: /^Insert variable/ }).count()).toBe(1);
    await step.getByLabel('Subject', { exact: true }).focus();
    await step.getByRole('combobox', { name: 'Insert variable into Subject' }).selectOption('subject');
    expect(await step.getByLabel('Subject', { exact: true }).inputValue()).toBe('Printer on fire{{subject}}');

    // The test action stays in view at the bottom of the window, however long the form is.
    await step.getByLabel('Subject', { exact: true }).scrollIntoViewIfNeeded();
    const test = step.getByRole('button', { name: 'Test step' });
    const inView = await test.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);

    await step.getByLabel(/really write/).check();
    const sent = session.page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/ticketing.create_ticket/test'),
    );
    await test.click();
    const input = ((await sent).postDataJSON() as { input: Record<string, unknown> }).input;
    expect(input.tags).toEqual(['vip', 'printer']);
    expect(Array.isArray(input.followers) && input.followers.length).toBe(2);
    for (const follower of input.followers as unknown[]) expect(typeof follower).toBe('number');
    // Nothing the person left alone: no checkbox sent as false, no empty custom fields.
    expect(Object.keys(input).sort()).toEqual(['description', 'followers', 'subject', 'tags']);
    const outcome = step.getByRole('region', { name: 'Test result' });
    await expect.poll(() => outcome.textContent()).toMatch(/Ran in/);
    expect(await outcome.textContent()).not.toMatch(/attempt\(s\)|HTTP \d/);
    expect(await seriousViolations(session.page)).toEqual([]);
  });

  it('no raw custom-fields box beside the account’s typed custom fields', async () => {
    const step = form();
    // The account's own field, titled as the account titles it.
    expect(await step.getByLabel('VIP customer', { exact: true }).count()).toBe(1);
    expect(await step.getByLabel('Custom fields', { exact: true }).count()).toBe(0);
  });

  it('trigger setup: Activate waits for provider and event, the stale alert goes, Delivery shows its default, statuses in the payload’s case', async () => {
    await tab('Triggers').click();
    const trigger = setup();
    const activate = trigger.getByRole('button', { name: 'Activate' });
    expect(await activate.isDisabled()).toBe(true);
    expect(await trigger.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    // The host page asks anyway: the element says what is missing.
    await trigger.evaluate((element) =>
      (element as HTMLElementTagNameMap['toolsteps-trigger-setup']).activate(),
    );
    const alert = trigger.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Choose a provider and an event first.');
    await trigger.getByLabel('Provider', { exact: true }).selectOption({ label: 'Ticketing (Zendesk)' });
    await trigger.getByLabel('Event', { exact: true }).selectOption({ label: 'Ticket status changed' });
    await expect.poll(() => activate.isEnabled()).toBe(true);
    expect(await alert.count()).toBe(0);
    expect(await trigger.textContent()).not.toContain('Choose a provider and an event first');

    const delivery = trigger.getByLabel('Delivery', { exact: true });
    expect(await delivery.locator('option').first().textContent()).toBe('Default (Every change)');
    const statuses = trigger.getByRole('combobox', { name: 'To statuses', exact: true });
    await statuses.click();
    const labels = await trigger
      .getByRole('listbox', { name: 'To statuses choices' })
      .getByRole('option')
      .allTextContents();
    expect(labels).toEqual(['NEW', 'OPEN', 'PENDING', 'HOLD', 'SOLVED', 'CLOSED']);
    await statuses.press('Escape');
  });

  it('an untouched checkbox of a trigger’s options is not sent; the test result reads as a card', async () => {
    const trigger = setup();
    await trigger.getByLabel('Event', { exact: true }).selectOption({ label: 'Comment added to ticket' });
    const created = session.page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/v1/subscriptions',
    );
    await trigger.getByRole('button', { name: 'Send test event' }).click();
    const body = (await created).postDataJSON() as { setup: Record<string, unknown> };
    expect(body.setup).toEqual({});
    const outcome = trigger.getByRole('region', { name: 'Test result' });
    await expect.poll(() => outcome.textContent()).toMatch(/would start the agent/);
    expect(await outcome.textContent()).not.toMatch(/attempt\(s\)|HTTP \d|event_webhook/);
    expect(await seriousViolations(session.page)).toEqual([]);
  });

  it('while the API is slow, the trigger setup says it is loading its providers', async () => {
    const listing = await holdAnswers((url) => url.pathname === '/v1/triggers');
    await session.page.reload();
    await tab('Triggers').click();
    const provider = setup().getByLabel('Provider', { exact: true });
    await expect.poll(() => provider.locator('option').first().textContent()).toBe('Loading providers…');
    expect(await provider.isDisabled()).toBe(true);
    await listing.release();
    await expect.poll(() => provider.isEnabled()).toBe(true);
  });
});

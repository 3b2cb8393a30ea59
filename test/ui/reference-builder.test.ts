import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_TICKETING_ACCOUNT } from '../../cli/sandbox-connect-settings.js';
import {
  allowIfAsked,
  returnFromSignIn,
  SIGN_IN_TEST_MS,
  submitConnectForm,
} from './support/builder-page.js';
import { type Browser, launchChromium, screenshot, seriousViolations } from './support/chromium.js';
import { type ReferenceBuilder, startReferenceBuilder } from './support/reference-builder.js';

/**
 * The seed's builder flows, end to end: `toolsteps ui`'s page in headless
 * Chromium against the sandbox, found and driven only by the accessible
 * names the kit promises (docs/embedding.md). The flows run in order on one
 * page, as a person would do them: connect, build a step, set up a trigger.
 */
// Each flow is a person's minute: minutes on a loaded 2-core machine. Nothing here times anything.
vi.setConfig({ testTimeout: 90_000 });
let builder: ReferenceBuilder;
let browser: Browser;
let page: Page;
/** The ticket the Create Ticket flow made, whose status the trigger flow then changes. */
let createdTicketId = '';

beforeAll(async () => {
  builder = await startReferenceBuilder({ tenant: 'default' });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(builder.pageUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await builder?.stop();
});

const tab = (name: string) => page.getByRole('tab', { name, exact: true });
const section = (name: string | RegExp) => page.getByRole('region', { name });

/** The accessible name of the focused control, through shadow roots: its aria-label, its label, or its text. */
function focusedName(): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active) return '';
    const labels = (active as HTMLInputElement).labels;
    return (
      active.getAttribute('aria-label') ??
      (labels?.length ? (labels[0]!.firstChild?.textContent ?? '') : (active.textContent ?? ''))
    ).trim();
  });
}

/** Presses Tab until the focus is on the control named `name`, as a keyboard user would. */
async function pressTabUntil(name: string | RegExp, most = 80): Promise<void> {
  for (let press = 0; press < most; press += 1) {
    const focused = await focusedName();
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name} (the focus is on ${await focusedName()})`);
}

/** Waits until the step form shows the chosen step for the chosen account (it is busy while loading). */
async function formReady(): Promise<void> {
  const form = page.locator('#step-form');
  const ready = () =>
    form.evaluate(
      (element) => Boolean(element.getAttribute('connection')) && !element.hasAttribute('aria-busy'),
    );
  await expect.poll(ready).toBe(true);
}

/** An agent of the sandbox's ticketing account (sandbox/ticketing/ticketing-seed.ts). */
const SANDBOX_AGENT = 'sam@acme.example';

/**
 * Whether the form, described for the chosen account, offers the account's agents as
 * choices (the step's assignee field has options): then they fill a dropdown.
 */
async function assigneeHasOptions(): Promise<boolean> {
  const form = page.locator('#step-form');
  type Described = { description?: { input: { properties: Record<string, object> } } };
  await formReady();
  return form.evaluate(
    (element) =>
      'x-toolsteps-options' in ((element as Described).description?.input.properties.assignee ?? {}),
  );
}

/** The assignee: the first of the account's agents from the dropdown once options exist, else typed. */
async function chooseAssignee(): Promise<void> {
  const assignee = page.locator('#step-form').getByLabel('Assignee', { exact: true });
  if (!(await assigneeHasOptions())) {
    await assignee.fill(SANDBOX_AGENT);
    return;
  }
  await expect.poll(() => assignee.locator('option').count()).toBeGreaterThan(1);
  const agent = await assignee.locator('option').nth(1).getAttribute('value');
  await assignee.selectOption(agent!);
}

/** A value in the variable mapper's tree, by its JSONPath (its name goes on with the value). */
const valueNamed = (jsonPath: string) =>
  new RegExp(`^Add variable for ${jsonPath.replace(/[$.[\]]/g, '\\$&')}: `);

async function expectNoSeriousViolations(name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousViolations(page), name).toEqual([]);
}

describe('the reference builder (toolsteps ui) in Chromium', () => {
  it(
    'connects ticketing through the redirect and allow screen',
    async () => {
      await tab('Connections').click();
      const visited: string[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame())
          visited.push(request.url());
      });
      const ticketing = section(/^Ticketing/);
      await ticketing.getByRole('button', { name: 'Connect new account' }).click();
      await submitConnectForm(ticketing, 'Continue to sign in');
      // The page leaves for the provider's sign-in and allow screen, and the API's callback brings it back.
      await returnFromSignIn(page, builder);
      expect(visited.some((url) => url.startsWith(`${builder.sandbox.url}/`))).toBe(true);
      const again = section(/^Ticketing/);
      await expect.poll(() => again.getByRole('status').first().textContent()).toMatch(/^Connected /);
      expect(await again.getByLabel('Connection').inputValue()).not.toBe('');
      // The callback's parameters leave the address once the picker has read the flow.
      expect(new URL(page.url()).search).toBe('');
    },
    SIGN_IN_TEST_MS,
  );

  it('connects deployments through the pop-up sign-in', async () => {
    await tab('Connections').click();
    const deployments = section(/^Deployments/);
    const popup = page.waitForEvent('popup');
    await deployments.getByRole('button', { name: 'Connect new account' }).click();
    await submitConnectForm(deployments, 'Continue to sign in');
    const signIn = await popup;
    // The sandbox's user says yes at once; a pop-up that asks is answered, one that closed is done.
    await allowIfAsked(signIn).catch(() => {});
    await expect.poll(() => deployments.getByRole('status').first().textContent()).toMatch(/^Connected /);
    expect(await deployments.getByLabel('Connection').inputValue()).not.toBe('');
  });

  it("enters a data integration's API key", async () => {
    await tab('Connections').click();
    const data = section(/^Contact data/i);
    await data.getByRole('button', { name: 'Connect new account' }).click();
    await data.getByLabel('API key').fill(builder.contactDataKey);
    await data.getByRole('button', { name: 'Save API key' }).click();
    await expect.poll(() => data.getByRole('status').first().textContent()).toMatch(/^Connected /);
    await expectNoSeriousViolations('connections');
  });

  it('searches "zendesk", fills Create Ticket with an assignee from the dropdown, maps the id, tests', async () => {
    await tab('Steps').click();
    await page.getByLabel('Search tool steps').fill('zendesk');
    const result = page.getByRole('button', { name: 'Create Ticket', exact: true });
    await result.click();
    await expectNoSeriousViolations('search-zendesk');
    const connection = page.locator('#step-connection').getByLabel('Connection');
    await expect.poll(() => connection.inputValue()).not.toBe('');
    const form = page.locator('#step-form');
    await form.getByLabel('Subject', { exact: true }).fill('Printer on fire');
    await form.getByLabel('Description', { exact: true }).fill('Smoke from tray 2.');
    // Optional fields are folded under "More options".
    await form.getByText(/^More options/).click();
    await form.getByLabel('Priority', { exact: true }).selectOption('high');
    await chooseAssignee();
    const mapper = page.locator('#step-variables');
    await mapper.getByRole('button', { name: valueNamed('$.ticket.url') }).click();
    await mapper.getByRole('button', { name: valueNamed('$.ticket.id') }).click();
    // The step's default mapping already holds the id: it is pointed at, and renamed here.
    const idName = mapper.getByRole('textbox', { name: /^Variable \d+ name$/ }).first();
    await expect
      .poll(() => idName.evaluate((input) => input === (input.getRootNode() as ShadowRoot).activeElement))
      .toBe(true);
    await idName.fill('new_ticket_id');
    await form.getByLabel(/really write/).check();
    await form.getByRole('button', { name: 'Test step' }).click();
    const outcome = form.getByRole('region', { name: 'Test result' });
    await expect.poll(() => outcome.textContent()).toMatch(/new_ticket_id\s*\d+/);
    createdTicketId = /new_ticket_id\s*(\d+)/.exec((await outcome.textContent()) ?? '')![1]!;
    await expectNoSeriousViolations('create-ticket-tested');
  });

  it('completes Create Ticket from the keyboard alone', async () => {
    await page.reload();
    await page.keyboard.press('Tab');
    await pressTabUntil('Steps');
    await page.keyboard.press('Enter');
    await pressTabUntil('Search tool steps');
    await page.keyboard.type('create ticket');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Create Ticket', exact: true }).count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect(await focusedName()).toBe('Create Ticket');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#step-form').getByLabel('Subject', { exact: true }).count())
      .toBe(1);
    await pressTabUntil('Subject');
    await page.keyboard.type('Typed, not clicked');
    await pressTabUntil('Description');
    await page.keyboard.type('Every step from the keyboard.');
    await pressTabUntil(/^More options/);
    await page.keyboard.press('Enter');
    await pressTabUntil('Assignee');
    if (await assigneeHasOptions()) {
      const assignee = page.locator('#step-form').getByLabel('Assignee', { exact: true });
      await expect.poll(() => assignee.locator('option').count()).toBeGreaterThan(1);
      await page.keyboard.press('ArrowDown');
      expect(await assignee.inputValue()).not.toBe('');
    } else {
      await page.keyboard.type(SANDBOX_AGENT);
    }
    await pressTabUntil(/really write/);
    await page.keyboard.press('Space');
    await pressTabUntil('Test step');
    await page.keyboard.press('Enter');
    const outcome = page.locator('#step-form').getByRole('region', { name: 'Test result' });
    await expect.poll(() => outcome.textContent()).toMatch(/Ran in/);
    // Re-point a variable from the keyboard: its JSONPath box, then back through its name box and the rows to a value in the tree.
    await pressTabUntil('JSONPath for ticket_id');
    for (
      let press = 0;
      press < 120 && !/^Add variable for \$\.ticket\.subject: /.test(await focusedName());
      press += 1
    )
      await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const mapper = page.getByRole('textbox', { name: 'JSONPath for ticket_id' });
    await expect.poll(() => mapper.inputValue()).toBe('$.ticket.subject');
    await expectNoSeriousViolations('create-ticket-keyboard');
  });

  it('sets up "ticket status changed": maps subject and requester, sends a test event, activates, sees a change arrive', async () => {
    await tab('Triggers').click();
    const setup = page.locator('#trigger-setup');
    await setup.getByLabel('Provider', { exact: true }).selectOption({ label: 'Ticketing (Zendesk)' });
    await setup.getByLabel('Event', { exact: true }).selectOption({ label: 'Ticket status changed' });
    await expect.poll(() => setup.getByLabel('Connection').inputValue()).not.toBe('');
    await setup.getByRole('textbox', { name: 'JSONPath for subject' }).focus();
    await setup.getByRole('button', { name: valueNamed('$.detail.subject') }).click();
    await setup.getByRole('textbox', { name: 'JSONPath for requester' }).focus();
    await setup.getByRole('button', { name: valueNamed('$.detail.requester_id') }).click();
    expect(await setup.getByRole('textbox', { name: 'JSONPath for requester' }).inputValue()).toBe(
      '$.detail.requester_id',
    );
    await setup.getByRole('button', { name: 'Send test event' }).click();
    const outcome = setup.getByRole('region', { name: 'Test result' });
    await expect.poll(() => outcome.textContent()).toMatch(/subject.*requester/s);
    await setup.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => setup.getByRole('button', { name: 'Active' }).count()).toBe(1);
    await expectNoSeriousViolations('trigger-active');

    // Change a ticket's status in the sandbox, through the builder's own Update Ticket test.
    await tab('Steps').click();
    await page.getByLabel('Search tool steps').fill('update ticket');
    await page.getByRole('button', { name: 'Update Ticket', exact: true }).click();
    const form = page.locator('#step-form');
    // The ticket is a dropdown of the account's recent tickets (options, issue 24).
    await form.getByLabel('Ticket id', { exact: true }).selectOption(createdTicketId);
    await form.getByText(/^More options/).click();
    await form.getByLabel('Status', { exact: true }).selectOption('solved');
    await form.getByLabel(/really write/).check();
    await form.getByRole('button', { name: 'Test step' }).click();
    await expect
      .poll(() => form.getByRole('region', { name: 'Test result' }).textContent())
      .toMatch(/Ran in/);

    await tab('Triggers').click();
    const events = setup.getByRole('log', { name: 'Events received' });
    await expect
      .poll(() => events.textContent(), { timeout: 30_000 })
      .toMatch(/Ticket status changed(?! \(test\))/);
    await screenshot(page, 'trigger-event-arrived');
  });

  it('a changed mapping after Activate replaces the active subscription, and only the element’s own events reach the host', async () => {
    await tab('Triggers').click();
    const setup = page.locator('#trigger-setup');
    await setup.evaluate((element) => {
      const seen: string[][] = [];
      (window as unknown as { seenChanges: string[][] }).seenChanges = seen;
      element.addEventListener('toolsteps-change', (event) =>
        seen.push(Object.keys((event as CustomEvent).detail).sort()),
      );
    });
    const subscriptions = async () => {
      const answer = await fetch(`${builder.server.url}/v1/subscriptions`, {
        headers: { authorization: `Bearer ${builder.mintToken('default')}` },
      });
      return ((await answer.json()) as { subscriptions: { active: boolean }[] }).subscriptions;
    };
    expect((await subscriptions()).map((one) => one.active)).toEqual([true]);
    // The inner account picker announces a choice: the host must hear it as this element's change.
    const account = setup.getByLabel('Connection');
    await account.selectOption(await account.inputValue());
    await setup.getByRole('textbox', { name: 'JSONPath for subject' }).fill('$.detail.status');
    await setup.getByRole('textbox', { name: 'JSONPath for subject' }).press('Tab');
    await setup.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => setup.getByRole('button', { name: 'Activate' }).isEnabled()).toBe(true);
    // The old active subscription is gone: no agent keeps receiving events mapped the old way.
    expect((await subscriptions()).map((one) => one.active)).toEqual([false]);
    await setup.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => setup.getByRole('button', { name: 'Active' }).count()).toBe(1);
    expect((await subscriptions()).map((one) => one.active)).toEqual([true]);
    const seen = await page.evaluate(() => (window as unknown as { seenChanges: string[][] }).seenChanges);
    expect(seen.length).toBeGreaterThan(0);
    for (const keys of seen) expect(keys).toEqual(['connection', 'mapping', 'trigger']);
  });

  it(
    'offers to reconnect an account whose access the provider revoked, and the reconnected account works',
    async () => {
      const form = page.locator('#step-form');
      const chooseTicket = async () => {
        const result = page.getByRole('button', { name: 'Get Ticket Info', exact: true });
        await tab('Steps').click();
        // Typed once: each search is a request, and a page's token has a budget of requests a minute.
        await page.getByLabel('Search tool steps').fill('get ticket');
        await expect.poll(() => result.count(), { timeout: 30_000, interval: 250 }).toBe(1);
        await result.click();
        await formReady();
        const ticket = form.getByLabel('Ticket id', { exact: true });
        await expect
          .poll(() => ticket.locator(`option[value="${createdTicketId}"]`).count(), {
            timeout: 30_000,
            interval: 250,
          })
          .toBe(1);
        await ticket.selectOption(createdTicketId);
      };
      await chooseTicket();
      // The last test's Update Ticket result went with its step: nothing here yet reads as this step's.
      expect((await form.locator('[part="result"]').textContent())?.trim()).toBe('');
      // Nor does the mapper's last word on an earlier step's variables ("Mapped ticket_id to $.ticket.subject.").
      expect((await page.locator('#step-variables [part="status"]').textContent())?.trim()).toBe('');
      // The account's admin removed the app at the provider: every token it held, refresh tokens too, is dead.
      builder.sandbox.ticketing.oauth.revokeAccount(SANDBOX_TICKETING_ACCOUNT);
      await form.getByRole('button', { name: 'Test step' }).click();
      const outcome = form.getByRole('region', { name: 'Test result' });
      await expect.poll(() => outcome.textContent()).not.toMatch(/^\s*$/);
      expect(await outcome.textContent()).not.toMatch(/Ran in/);
      // The account's sign-in was refused, not the builder session's: the page says which, and what to do.
      await expect
        .poll(() => outcome.textContent())
        .toContain("This account's sign-in was refused: reconnect it.");
      expect(await page.locator('body').textContent()).not.toMatch(/builder session/i);
      const picker = page.locator('#step-connection');
      const reconnect = picker.getByRole('button', { name: 'Reconnect' });
      await expect.poll(() => reconnect.isVisible()).toBe(true);
      await screenshot(page, 'reconnect-offered');
      await reconnect.click();
      await returnFromSignIn(page, builder);
      // The page has read the sign-in's outcome once its parameters leave the address.
      await expect.poll(() => new URL(page.url()).search).toBe('');
      // A new session (this suite's token has spent much of its requests for the minute): the reconnected account is the one it uses.
      // (From another document: a new fragment alone would not load the page again.)
      await page.goto('about:blank');
      await page.goto(builder.pageUrlFor('default'));
      await chooseTicket();
      await form.getByRole('button', { name: 'Test step' }).click();
      await expect.poll(() => outcome.textContent()).toMatch(/Ran in/);
      expect(await picker.getByRole('button', { name: 'Reconnect' }).isVisible()).toBe(false);
    },
    SIGN_IN_TEST_MS,
  );
});

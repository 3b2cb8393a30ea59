import { pathOf } from '../client/api-routes.js';
import type {
  IntegrationsResponse,
  SubscriptionTestResponse,
  SubscriptionView,
  TriggersResponse,
  TriggerView,
} from '../client/api-types.js';
import { SubscriptionDraft } from '../client/subscription-draft.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { TriggerOptionsFields } from '../forms/trigger-options-fields.js';
import { showSubscriptionTest } from '../views/subscription-test-view.js';
import { TriggerEventFeed } from '../views/trigger-event-feed.js';
import { ToolstepsConnectionPicker } from './connection-picker.js';
import { ToolstepsVariableMapper } from './variable-mapper.js';

/**
 * `<toolsteps-trigger-setup inputs="subject,requester">`: what starts an
 * agent. Choose the provider and the event, the account, map the event's
 * data to the agent's input variables (`inputs`), send a test event through
 * the real intake (or wait for a real one), then activate. Events that
 * arrive for the tenant's subscriptions are listed as they come. "Send test
 * event" and "Activate" are enabled once a provider, an event and an account
 * are chosen; a message about a choice made since is cleared.
 *
 * Events: `toolsteps-change` ({ trigger, connection, mapping }),
 * `toolsteps-test-result` ({ ok, result?, error? }), `toolsteps-activated`
 * ({ subscription }), `toolsteps-event` ({ event }).
 * Parts: `provider`, `event`, `send-test`, `wait`, `activate`, `result`, `events`.
 */
export class ToolstepsTriggerSetup extends ToolstepsElement {
  static readonly tag = 'toolsteps-trigger-setup';
  #provider!: HTMLSelectElement;
  #event!: HTMLSelectElement;
  #picker!: ToolstepsConnectionPicker;
  #mapper!: ToolstepsVariableMapper;
  #options = new TriggerOptionsFields();
  #result!: HTMLElement;
  #feed!: TriggerEventFeed;
  #activate!: HTMLButtonElement;
  #sendTest!: HTMLButtonElement;
  /** The subscription of what is chosen is active: Activate has nothing to do until the choice changes and is tested. */
  #active = false;
  #triggers: TriggerView[] = [];
  #draft = new SubscriptionDraft();

  get subscription(): SubscriptionView | undefined {
    return this.#draft.current;
  }

  protected override setup(): void {
    const providerId = uniqueId('provider');
    const eventId = uniqueId('event');
    this.#provider = h(
      'select',
      { id: providerId, part: 'provider', disabled: true, onchange: () => this.#showEvents() },
      h('option', { value: '' }, 'Loading providers…'),
    );
    this.#event = h(
      'select',
      { id: eventId, part: 'event', disabled: true, onchange: () => this.#showTrigger() },
      h('option', { value: '' }, 'Choose a provider first'),
    );
    this.#picker = new ToolstepsConnectionPicker();
    // The inner picker's own events stay inside: the host hears this element's toolsteps-change only.
    this.#picker.addEventListener('toolsteps-change', (event) => {
      event.stopPropagation();
      this.#changed();
    });
    this.#mapper = new ToolstepsVariableMapper();
    this.#mapper.setAttribute('label', 'Sample event');
    this.#mapper.addEventListener('toolsteps-change', (event) => {
      event.stopPropagation();
      this.#changed();
    });
    this.#result = h('section', { part: 'result', 'aria-label': 'Test result', className: 'result' });
    this.#feed = new TriggerEventFeed({
      client: () => this.requireClient(),
      titleOf: (id) => this.#triggers.find((trigger) => trigger.id === id)?.title,
      arrived: (event) => this.emit('toolsteps-event', { event }),
      failed: (error) => this.fail(error),
      say: (message) => this.say(message),
    });
    this.#activate = h(
      'button',
      {
        type: 'button',
        part: 'activate',
        className: 'primary',
        disabled: true,
        onclick: () => void this.activate(),
      },
      'Activate',
    );
    this.#sendTest = h(
      'button',
      { type: 'button', part: 'send-test', disabled: true, onclick: () => void this.sendTestEvent() },
      'Send test event',
    );
    render(
      this.body,
      h(
        'div',
        { className: 'row' },
        h('div', { className: 'grow' }, h('label', { htmlFor: providerId }, 'Provider'), this.#provider),
        h('div', { className: 'grow' }, h('label', { htmlFor: eventId }, 'Event'), this.#event),
      ),
      this.#picker,
      this.#options.element,
      this.#mapper,
      h('div', { className: 'row actions' }, this.#sendTest, this.#feed.waitButton, this.#activate),
      this.#result,
      h('h4', null, 'Events received'),
      this.#feed.log,
    );
  }

  /** Closes the event stream, so a removed element leaves no request open. */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#feed.close();
  }

  protected override refresh(): void {
    this.#picker.client = this.client;
    // A new client (a new token from configure()): an open stream starts again with it.
    this.#feed.restart();
    void this.attempt(async () => {
      const client = this.requireClient();
      const [{ triggers }, { integrations }] = await Promise.all([
        client.get<TriggersResponse>(pathOf('listTriggers')),
        client.get<IntegrationsResponse>(pathOf('listIntegrations')),
      ]);
      this.#triggers = triggers;
      const providers = integrations.filter((entry) => triggers.some((t) => t.integration === entry.id));
      const chosen = this.#provider.value;
      render(
        this.#provider,
        h('option', { value: '' }, providers.length ? 'Choose a provider' : 'No provider has events'),
        providers.map((entry) => h('option', { value: entry.id }, entry.title)),
      );
      this.#provider.value = chosen;
      this.#provider.disabled = !providers.length;
      this.#showEvents();
    }).then((loaded) => {
      if (loaded === undefined && !this.#triggers.length) {
        render(this.#provider, h('option', { value: '' }, 'Providers could not be loaded'));
      }
    });
  }

  #trigger(): TriggerView | undefined {
    return this.#triggers.find((trigger) => trigger.id === this.#event.value);
  }

  #showEvents(): void {
    const integration = this.#provider.value;
    const triggers = this.#triggers.filter((trigger) => trigger.integration === integration);
    render(
      this.#event,
      h('option', { value: '' }, integration ? 'Choose an event' : 'Choose a provider first'),
      triggers.map((trigger) => h('option', { value: trigger.id }, trigger.title)),
    );
    this.#event.disabled = !integration;
    if (integration) this.#picker.integration = integration;
    this.#showTrigger();
  }

  #showTrigger(): void {
    const trigger = this.#trigger();
    const inputs = (this.getAttribute('inputs') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    this.#mapper.sample = trigger?.sample ?? undefined;
    // The agent's own input variables, each to be pointed at the event's data; without them, the trigger's defaults.
    this.#mapper.mapping = inputs.length
      ? Object.fromEntries(inputs.map((name) => [name, '']))
      : (trigger?.variables ?? {});
    this.#options.show(trigger);
    this.#changed();
  }

  #changed(): void {
    // What the status line said about an earlier choice ("Choose a provider and an event first") is stale now.
    if (this.statusLine.getAttribute('role') === 'alert') this.say('');
    const ready = Boolean(this.#event.value && this.#picker.value);
    this.#sendTest.disabled = !ready;
    this.#activate.disabled = !ready || this.#active;
    this.emit('toolsteps-change', {
      trigger: this.#event.value || null,
      connection: this.#picker.value || null,
      mapping: this.#mapper.mapping,
    });
  }

  /** The subscription for what is chosen now: made (inactive) when none matches it yet. */
  async #ensureSubscription(): Promise<SubscriptionView | undefined> {
    const trigger = this.#event.value;
    const connection = this.#picker.value;
    if (!trigger || !connection) {
      this.fail(new Error(trigger ? 'Choose a connection first.' : 'Choose a provider and an event first.'));
      return undefined;
    }
    const setup = this.#options.values();
    if (!setup) return undefined;
    const choice = { trigger, connection, setup, mapping: this.#mapper.mapping };
    return this.#draft.ensure(() => this.requireClient(), choice, {
      replaced: (active) => {
        if (!active) return;
        this.#active = false;
        this.#activate.textContent = 'Activate';
        this.#activate.disabled = false;
      },
      subscribing: () => this.say('Subscribing…'),
    });
  }

  /** Sends the trigger's sample event through the real intake and shows what it mapped. */
  async sendTestEvent(): Promise<SubscriptionTestResponse | undefined> {
    this.#sendTest.disabled = true;
    const result = await this.attempt(async () => {
      const subscription = await this.#ensureSubscription();
      if (!subscription) return undefined;
      this.say('Sending a test event…');
      return this.requireClient().post<SubscriptionTestResponse>(
        pathOf('testSubscription', { subscriptionId: subscription.id }),
      );
    });
    this.#sendTest.disabled = !(this.#event.value && this.#picker.value);
    if (!result) {
      this.emit('toolsteps-test-result', {
        ok: false,
        error: { message: this.statusLine.textContent ?? '' },
      });
      return undefined;
    }
    showSubscriptionTest(this.#result, result);
    this.say('Test event done.');
    this.emit('toolsteps-test-result', { ok: true, result });
    return result;
  }

  /** Turns deliveries on, and lists the events that arrive. */
  async activate(): Promise<SubscriptionView | undefined> {
    const active = await this.attempt(async () => {
      const subscription = await this.#ensureSubscription();
      if (!subscription) return undefined;
      return this.requireClient().post<SubscriptionView>(
        pathOf('activateSubscription', { subscriptionId: subscription.id }),
      );
    });
    if (!active) return undefined;
    this.#draft.activated(active);
    this.#active = true;
    this.#activate.textContent = 'Active';
    this.#activate.disabled = true;
    this.say('Active: events now start the agent.');
    this.#feed.listen(true);
    this.emit('toolsteps-activated', { subscription: active });
    return active;
  }

  protected override styles(): string {
    return `
      .actions { margin: var(--_gap) 0; }
      toolsteps-connection-picker { margin: calc(var(--_gap) * 1.5) 0; }
      .result:empty { display: none; }
      h4 { margin: var(--_gap) 0 4px; }
      ol.list:empty::after { content: 'None yet.'; display: block; padding: 6px 8px; color: var(--_muted); }
    `;
  }
}

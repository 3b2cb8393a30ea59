import { ApiError } from '../kit/api-error.js';
import { pathOf } from '../kit/api-routes.js';
import type {
  IntegrationsResponse,
  StreamedTriggerEvent,
  SubscriptionTestResponse,
  SubscriptionView,
  TriggersResponse,
  TriggerView,
} from '../kit/api-types.js';
import { h, render, uniqueId } from '../kit/dom.js';
import { watchTriggerEvents } from '../kit/event-stream.js';
import { checkField } from '../kit/field-value.js';
import { type FormField, plainField } from '../kit/form-field.js';
import { fieldsOf } from '../kit/schema-fields.js';
import { ToolstepsElement } from '../kit/toolsteps-element.js';
import { ToolstepsConnectionPicker } from './connection-picker.js';
import { ToolstepsVariableMapper } from './variable-mapper.js';

/**
 * `<toolsteps-trigger-setup inputs="subject,requester">`: what starts an
 * agent. Choose the provider and the event, the account, map the event's
 * data to the agent's input variables (`inputs`), send a test event through
 * the real intake (or wait for a real one), then activate. Events that
 * arrive for the tenant's subscriptions are listed as they come.
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
  #setupBox!: HTMLElement;
  #setupFields: FormField[] = [];
  #result!: HTMLElement;
  #events!: HTMLOListElement;
  #wait!: HTMLButtonElement;
  #activate!: HTMLButtonElement;
  #triggers: TriggerView[] = [];
  #subscription: SubscriptionView | undefined;
  #subscribedWith = '';
  #stream: AbortController | undefined;

  get subscription(): SubscriptionView | undefined {
    return this.#subscription;
  }

  protected override setup(): void {
    const providerId = uniqueId('provider');
    const eventId = uniqueId('event');
    this.#provider = h('select', { id: providerId, part: 'provider', onchange: () => this.#showEvents() });
    this.#event = h('select', { id: eventId, part: 'event', onchange: () => this.#showTrigger() });
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
    this.#setupBox = h('div');
    this.#result = h('section', { part: 'result', 'aria-label': 'Test result', className: 'result' });
    this.#events = h('ol', {
      part: 'events',
      role: 'log',
      'aria-label': 'Events received',
      className: 'list',
    });
    this.#wait = h(
      'button',
      { type: 'button', part: 'wait', onclick: () => this.#toggleWait() },
      'Wait for an event',
    );
    this.#activate = h(
      'button',
      { type: 'button', part: 'activate', className: 'primary', onclick: () => void this.activate() },
      'Activate',
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
      this.#setupBox,
      this.#mapper,
      h(
        'div',
        { className: 'row actions' },
        h(
          'button',
          { type: 'button', part: 'send-test', onclick: () => void this.sendTestEvent() },
          'Send test event',
        ),
        this.#wait,
        this.#activate,
      ),
      this.#result,
      h('h4', null, 'Events received'),
      this.#events,
    );
  }

  /** Closes the event stream, so a removed element leaves no request open. */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stream?.abort();
    this.#stream = undefined;
  }

  protected override refresh(): void {
    this.#picker.client = this.client;
    // A new client (a new token from configure()): an open stream starts again with it.
    if (this.#stream) {
      this.#listen(false);
      this.#listen(true);
    }
    void this.attempt(async () => {
      const client = this.requireClient();
      const [{ triggers }, { integrations }] = await Promise.all([
        client.get<TriggersResponse>(pathOf('listTriggers')),
        client.get<IntegrationsResponse>(pathOf('listIntegrations')),
      ]);
      this.#triggers = triggers;
      const providers = integrations.filter((entry) => triggers.some((t) => t.integration === entry.id));
      render(
        this.#provider,
        h('option', { value: '' }, 'Choose a provider'),
        providers.map((entry) => h('option', { value: entry.id }, entry.title)),
      );
      this.#showEvents();
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
    this.#setupFields = trigger ? fieldsOf(trigger.setup).map((spec) => plainField(spec)) : [];
    render(
      this.#setupBox,
      this.#setupFields.length
        ? h(
            'fieldset',
            null,
            h('legend', null, 'Options'),
            this.#setupFields.map((field) => field.element),
          )
        : null,
    );
    this.#changed();
  }

  #changed(): void {
    this.emit('toolsteps-change', {
      trigger: this.#event.value || null,
      connection: this.#picker.value || null,
      mapping: this.#mapper.mapping,
    });
  }

  #setupValues(): Record<string, unknown> | undefined {
    const values: Record<string, unknown> = {};
    for (const field of this.#setupFields) {
      const checked = checkField(field.spec, field.read());
      field.setProblem(checked?.problem);
      if (checked?.problem) return undefined;
      if (checked) values[field.spec.name] = checked.value;
    }
    return values;
  }

  /** The subscription for what is chosen now: made (inactive) when none matches it yet. */
  async #ensureSubscription(): Promise<SubscriptionView | undefined> {
    const trigger = this.#event.value;
    const connection = this.#picker.value;
    if (!trigger || !connection) {
      this.fail(new Error(trigger ? 'Choose a connection first.' : 'Choose a provider and an event first.'));
      return undefined;
    }
    const setup = this.#setupValues();
    if (!setup) return undefined;
    const wanted = JSON.stringify({ trigger, connection, setup, mapping: this.#mapper.mapping });
    if (this.#subscription && this.#subscribedWith === wanted) return this.#subscription;
    const client = this.requireClient();
    if (this.#subscription) {
      // The setup changed: the subscription this element made for the old one goes, active or not,
      // so no agent keeps receiving events mapped the old way; the new one waits for Activate.
      const replaced = this.#subscription;
      await client.delete(pathOf('removeSubscription', { subscriptionId: replaced.id })).catch(() => {});
      this.#subscription = undefined;
      if (replaced.active) {
        this.#activate.textContent = 'Activate';
        this.#activate.disabled = false;
      }
    }
    this.say('Subscribing…');
    this.#subscription = await client.post<SubscriptionView>(pathOf('createSubscription'), {
      trigger,
      connection,
      setup,
      mapping: this.#mapper.mapping,
      active: false,
    });
    this.#subscribedWith = wanted;
    return this.#subscription;
  }

  /** Sends the trigger's sample event through the real intake and shows what it mapped. */
  async sendTestEvent(): Promise<SubscriptionTestResponse | undefined> {
    const result = await this.attempt(async () => {
      const subscription = await this.#ensureSubscription();
      if (!subscription) return undefined;
      this.say('Sending a test event…');
      return this.requireClient().post<SubscriptionTestResponse>(
        pathOf('testSubscription', { subscriptionId: subscription.id }),
      );
    });
    if (!result) {
      this.emit('toolsteps-test-result', {
        ok: false,
        error: { message: this.statusLine.textContent ?? '' },
      });
      return undefined;
    }
    render(
      this.#result,
      h('h4', null, 'Test result'),
      h(
        'p',
        { className: result.skipped ? 'problem' : 'ok' },
        result.skipped ? `Skipped: ${result.skipped}` : 'The test event was received and mapped.',
      ),
      h(
        'dl',
        null,
        Object.entries(result.variables).flatMap(([name, value]) => [
          h('dt', null, name),
          h('dd', null, h('code', null, typeof value === 'string' ? value : JSON.stringify(value))),
        ]),
      ),
      result.delivery ? h('p', { className: 'hint' }, result.delivery.message) : null,
    );
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
    this.#subscription = active;
    this.#activate.textContent = 'Active';
    this.#activate.disabled = true;
    this.say('Active: events now start the agent.');
    this.#listen(true);
    this.emit('toolsteps-activated', { subscription: active });
    return active;
  }

  #toggleWait(): void {
    this.#listen(!this.#stream);
  }

  #listen(on: boolean): void {
    if (on && !this.#stream) {
      this.#stream = watchTriggerEvents(
        this.requireClient(),
        (event) => this.#arrived(event),
        (error) => {
          this.fail(error);
          // The token was refused: the watch has stopped for good, so the button offers it again.
          if (error instanceof ApiError && (error.status === 401 || error.status === 403))
            this.#listen(false);
        },
      );
      this.#wait.textContent = 'Stop waiting';
      this.say('Waiting for events…');
    } else if (!on && this.#stream) {
      this.#stream.abort();
      this.#stream = undefined;
      this.#wait.textContent = 'Wait for an event';
    }
  }

  #arrived(event: StreamedTriggerEvent): void {
    const trigger = this.#triggers.find((t) => t.id === event.trigger);
    const values = Object.entries(event.variables)
      .map(([name, value]) => `${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(', ');
    this.#events.prepend(
      h(
        'li',
        null,
        h('strong', null, `${trigger?.title ?? event.trigger}${event.test ? ' (test)' : ''}`),
        ' ',
        h('span', { className: 'hint' }, values),
      ),
    );
    this.emit('toolsteps-event', { event });
  }

  protected override styles(): string {
    return `
      .actions { margin: var(--_gap) 0; }
      .result:empty { display: none; }
      h4 { margin: var(--_gap) 0 4px; }
      ol.list:empty::after { content: 'None yet.'; display: block; padding: 6px 8px; color: var(--_muted); }
    `;
  }
}

import { pathOf } from '../kit/api-routes.js';
import type {
  ConnectionsResponse,
  ConnectionView,
  FlowStatus,
  IntegrationsResponse,
  IntegrationView,
  ReconnectRequest,
  StartConnectRequest,
  StartConnectResponse,
} from '../kit/api-types.js';
import { followRedirect, openSignInWindow, settledFlow, takePendingFlow } from '../kit/connect-flow.js';
import { h, render, uniqueId } from '../kit/dom.js';
import { fieldsOf } from '../kit/schema-fields.js';
import { ToolstepsElement } from '../kit/toolsteps-element.js';

const nameOf = (connection: ConnectionView) => {
  const name = connection.label ?? connection.fields.subdomain ?? connection.id;
  return connection.state === 'expired' ? `${name} (signed out: reconnect)` : name;
};

/**
 * `<toolsteps-connection-picker integration="ticketing">`: the dropdown of
 * the tenant's accounts for one integration, "Connect new account" (a
 * redirect or a pop-up sign-in as the integration requires, or an API key
 * form), and "Reconnect" when the chosen account's sign-in has lapsed or a
 * call said so (`markNeedsReconnect()`).
 *
 * Attributes: `integration` (required), `value` (the connection to choose).
 * Events: `toolsteps-change` ({ integration, connection }),
 * `toolsteps-connected` ({ integration, connection: ConnectionView }).
 * Parts: `select`, `connect`, `reconnect`, `form`, `submit`.
 */
export class ToolstepsConnectionPicker extends ToolstepsElement {
  static readonly tag = 'toolsteps-connection-picker';
  static readonly observedAttributes = ['integration'];
  #select!: HTMLSelectElement;
  #connect!: HTMLButtonElement;
  #reconnect!: HTMLButtonElement;
  #form!: HTMLFormElement;
  #integration: IntegrationView | undefined;
  #connections: ConnectionView[] = [];
  #work = new AbortController();
  #needsReconnect = false;

  get integration(): string {
    return this.getAttribute('integration') ?? '';
  }

  set integration(id: string) {
    this.setAttribute('integration', id);
  }

  /** The chosen connection's id, or '' for none. */
  get value(): string {
    return this.#select?.value ?? this.getAttribute('value') ?? '';
  }

  set value(id: string) {
    this.setAttribute('value', id);
    if (this.#select) this.#select.value = id;
    this.#showReconnect();
  }

  get connections(): readonly ConnectionView[] {
    return this.#connections;
  }

  /** Reloads the accounts when the integration attribute changes, so one picker can follow a form's step. */
  attributeChangedCallback(): void {
    if (this.#select && this.client) this.refresh();
  }

  /** A call with the chosen account failed its sign-in: offer to reconnect it. */
  markNeedsReconnect(): void {
    this.#needsReconnect = true;
    this.#showReconnect();
  }

  protected override setup(): void {
    const selectId = uniqueId('connection');
    this.#select = h('select', { id: selectId, part: 'select', onchange: () => this.#changed() });
    this.#connect = h(
      'button',
      { type: 'button', part: 'connect', onclick: () => this.#onConnect() },
      'Connect new account',
    );
    this.#reconnect = h(
      'button',
      { type: 'button', part: 'reconnect', hidden: true, onclick: () => this.#onReconnect() },
      'Reconnect',
    );
    this.#form = h('form', { part: 'form', hidden: true, onsubmit: (e: Event) => this.#onSubmit(e) });
    render(
      this.body,
      h(
        'div',
        { className: 'row' },
        h('div', { className: 'grow' }, h('label', { htmlFor: selectId }, 'Connection'), this.#select),
        this.#connect,
        this.#reconnect,
      ),
      this.#form,
    );
  }

  protected override refresh(): void {
    this.#work.abort();
    this.#work = new AbortController();
    void this.#load(this.#work.signal);
  }

  async #load(signal: AbortSignal): Promise<void> {
    const integration = this.integration;
    if (!integration) return;
    await this.attempt(async () => {
      const client = this.requireClient();
      const [{ integrations }, { connections }] = await Promise.all([
        client.get<IntegrationsResponse>(pathOf('listIntegrations'), {}, signal),
        client.get<ConnectionsResponse>(pathOf('listConnections'), { integration }, signal),
      ]);
      this.#integration = integrations.find((entry) => entry.id === integration);
      this.#connections = connections;
      this.#showConnections(this.getAttribute('value') ?? '');
      const flowId = takePendingFlow(integration);
      if (flowId) {
        this.say('Finishing the sign-in…');
        await this.#finish(await settledFlow(client, flowId, signal));
      }
    });
  }

  #showConnections(chosen: string): void {
    const none = h(
      'option',
      { value: '' },
      this.#connections.length ? 'Choose an account' : 'No account yet',
    );
    render(
      this.#select,
      none,
      this.#connections.map((c) => h('option', { value: c.id }, nameOf(c))),
    );
    const fallback = this.#connections.length === 1 ? this.#connections[0]!.id : '';
    this.#select.value = this.#connections.some((c) => c.id === chosen) ? chosen : fallback;
    this.#connect.disabled = !this.#integration?.connect;
    this.#showReconnect();
    if (this.#select.value !== chosen) this.#changed();
  }

  #showReconnect(): void {
    const chosen = this.#connections.find((c) => c.id === this.#select?.value);
    if (this.#reconnect)
      this.#reconnect.hidden = !chosen || !(this.#needsReconnect || chosen.state === 'expired');
  }

  #changed(): void {
    this.#needsReconnect = false;
    this.#showReconnect();
    this.emit('toolsteps-change', { integration: this.integration, connection: this.#select.value || null });
  }

  /** The fields a person fills to connect: the integration's public fields, and the key for api_key. */
  #formFields(reconnecting: boolean): HTMLElement[] {
    const flow = this.#integration?.connect;
    const fields = reconnecting ? [] : fieldsOf(this.#integration?.fields ?? {});
    const rows = fields.map((field) => {
      const id = uniqueId('connect-field');
      return h(
        'div',
        { className: 'field' },
        h('label', { htmlFor: id }, field.title),
        h('input', { id, name: field.name, required: field.required, autocomplete: 'off' }),
        field.description ? h('p', { className: 'hint' }, field.description) : null,
      );
    });
    if (flow === 'api_key') {
      const id = uniqueId('api-key');
      rows.push(
        h(
          'div',
          { className: 'field' },
          h('label', { htmlFor: id }, 'API key'),
          h('input', { id, name: 'apiKey', type: 'password', required: true, autocomplete: 'off' }),
        ),
      );
    }
    return rows;
  }

  #onConnect(): void {
    this.#openForm(false);
  }

  #onReconnect(): void {
    this.#openForm(true);
  }

  /** Shows the connect form, or (an OAuth flow with nothing to fill) starts signing in at once. */
  #openForm(reconnecting: boolean): void {
    const rows = this.#formFields(reconnecting);
    this.#form.dataset.reconnect = reconnecting ? 'yes' : '';
    if (!rows.length) {
      void this.#start(reconnecting, {});
      return;
    }
    const flow = this.#integration?.connect;
    const title = this.#integration?.title ?? this.integration;
    render(
      this.#form,
      h(
        'fieldset',
        null,
        h('legend', null, `${reconnecting ? 'Reconnect' : 'Connect'} ${title}`),
        rows,
        h(
          'div',
          { className: 'row' },
          h(
            'button',
            { type: 'submit', className: 'primary', part: 'submit' },
            flow === 'api_key' ? 'Save API key' : 'Continue to sign in',
          ),
          h('button', { type: 'button', onclick: () => this.#closeForm() }, 'Cancel'),
        ),
      ),
    );
    this.#form.hidden = false;
    this.#form.querySelector('input')?.focus();
  }

  #closeForm(): void {
    this.#form.hidden = true;
    render(this.#form);
    this.#connect.focus();
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    const values: Record<string, string> = {};
    for (const input of this.#form.querySelectorAll('input')) {
      if (input.value.trim()) values[input.name] = input.value.trim();
    }
    void this.#start(this.#form.dataset.reconnect === 'yes', values);
  }

  /** Starts the integration's connect flow; a pop-up is opened before anything is awaited. */
  async #start(reconnecting: boolean, values: Record<string, string>): Promise<void> {
    const flow = this.#integration?.connect;
    const popup = flow === 'popup' ? openSignInWindow() : null;
    const { apiKey, ...fields } = values;
    const chosen = this.#select.value;
    const body: StartConnectRequest | ReconnectRequest = reconnecting
      ? { ...(apiKey ? { apiKey } : {}), returnTo: this.#returnTo() }
      : { integration: this.integration, fields, ...(apiKey ? { apiKey } : {}), returnTo: this.#returnTo() };
    this.say(flow === 'api_key' ? 'Checking the key…' : 'Opening the sign-in…');
    const started = await this.attempt(() =>
      this.requireClient().post<StartConnectResponse>(
        reconnecting ? pathOf('reconnectConnection', { connectionId: chosen }) : pathOf('startConnection'),
        body,
      ),
    );
    if (!started) {
      popup?.close();
      return;
    }
    if (started.flow === 'api_key') {
      await this.#connected(started.connection);
    } else if (started.flow === 'redirect') {
      followRedirect(started, this.integration);
    } else {
      await this.#watchPopup(started.flowId, started.authorizeUrl, popup);
    }
  }

  async #watchPopup(flowId: string, authorizeUrl: string, popup: Window | null): Promise<void> {
    if (!popup) {
      this.fail(
        new Error('The browser blocked the sign-in window. Allow pop-ups for this page and try again.'),
      );
      return;
    }
    popup.location.href = authorizeUrl;
    this.say('Sign in in the window that opened…');
    const signal = this.#work.signal;
    const status = await this.attempt(() => settledFlow(this.requireClient(), flowId, signal, popup));
    if (!popup.closed) popup.close();
    if (status) await this.#finish(status);
  }

  async #finish(status: FlowStatus): Promise<void> {
    if (status.state === 'connected' && status.connection) await this.#connected(status.connection);
    else this.fail(new Error(status.error?.message ?? `The sign-in did not finish (${status.state}).`));
  }

  async #connected(connection: ConnectionView): Promise<void> {
    this.#needsReconnect = false;
    this.#form.hidden = true;
    render(this.#form);
    const { connections } = await this.requireClient().get<ConnectionsResponse>(pathOf('listConnections'), {
      integration: this.integration,
    });
    this.#connections = connections;
    this.#showConnections(connection.id);
    this.say(`Connected ${nameOf(connection)}.`);
    this.emit('toolsteps-connected', { integration: this.integration, connection });
    this.emit('toolsteps-change', { integration: this.integration, connection: connection.id });
    this.#select.focus();
  }

  /** Where a redirect sign-in brings the browser back: this page, without its fragment. */
  #returnTo(): string {
    const url = new URL(location.href);
    url.hash = '';
    return url.toString();
  }
}

import { pathOf } from '../client/api-routes.js';
import type {
  ConnectionsResponse,
  ConnectionView,
  FlowStatus,
  IntegrationsResponse,
  IntegrationView,
  ReconnectRequest,
  StartConnectRequest,
  StartConnectResponse,
} from '../client/api-types.js';
import { followRedirect, openSignInWindow, settledFlow, takePendingFlow } from '../client/connect-flow.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { AccountEditor } from '../forms/account-editor.js';
import { ConnectForm } from '../forms/connect-form.js';

/**
 * Whether the account cannot work until the person signs in again: its
 * health says so. Not the access token's own `state`: an expired access
 * token with a live refresh token is renewed at the next call, and one that
 * cannot be renewed is `needs_reconnect` already.
 */
const needsSignIn = (connection: ConnectionView) => connection.health.state === 'needs_reconnect';

/** The account as people tell it apart: its label (asked for, or the provider's name for it), and its site. */
const nameOf = (connection: ConnectionView) => {
  const { label } = connection;
  const site = connection.fields.subdomain;
  const name =
    label && site && !label.includes(site) ? `${label} (${site})` : (label ?? site ?? connection.id);
  return needsSignIn(connection) ? `${name} (signed out: reconnect)` : name;
};

/**
 * The chosen account's health in words, one line per state of the API's one
 * vocabulary (docs/connection-lifecycle.md); a state added later is shown as
 * it comes.
 */
const HEALTH: Record<string, string> = {
  healthy: 'Working.',
  expiring: 'Its sign-in ends soon: it is renewed by itself, or reconnect it now.',
  needs_reconnect: 'Signed out at the provider: reconnect it to use it again.',
  rate_limited: 'The provider asked to wait at its last check; it will be tried again.',
  unreachable: 'The provider could not be reached at its last check; it will be tried again.',
};
const healthOf = (connection: ConnectionView | undefined) =>
  connection ? (HEALTH[connection.health.state] ?? connection.health.state) : '';
/** States the health line shows as a problem. */
const PROBLEM_STATES = new Set(['needs_reconnect', 'rate_limited', 'unreachable']);

/**
 * `<toolsteps-connection-picker integration="ticketing">`: the dropdown of
 * the tenant's accounts for one integration, "Connect new account" (a
 * redirect or a pop-up sign-in as the integration requires, or an API key
 * form), and "Reconnect" when the chosen account's sign-in has lapsed or a
 * call said so (`markNeedsReconnect()`).
 *
 * Each account shows its label (asked for at connect, or the provider's
 * own name for it: an email, a user or team), its health, and "Rename" and
 * "Disconnect". Back from a redirect sign-in, the picker finishes the flow
 * itself: the new account is chosen and the events below fire.
 *
 * Attributes: `integration` (required), `value` (the connection to choose).
 * Events: `toolsteps-change` ({ integration, connection }),
 * `toolsteps-connected` ({ integration, connection: ConnectionView }).
 * Parts: `select`, `health`, `connect`, `reconnect`, `rename`, `disconnect`, `form`, `submit`.
 */
export class ToolstepsConnectionPicker extends ToolstepsElement {
  static readonly tag = 'toolsteps-connection-picker';
  static readonly observedAttributes = ['integration'];
  #select!: HTMLSelectElement;
  #connect!: HTMLButtonElement;
  #reconnect!: HTMLButtonElement;
  #rename!: HTMLButtonElement;
  #disconnect!: HTMLButtonElement;
  #health!: HTMLElement;
  #form!: ConnectForm;
  #editor!: AccountEditor;
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
    const healthId = uniqueId('health');
    this.#select = h('select', {
      id: selectId,
      part: 'select',
      'aria-describedby': healthId,
      onchange: () => this.#changed(),
    });
    this.#health = h('p', { id: healthId, className: 'hint', part: 'health' });
    const button = (label: string, part: string, onclick: () => void) =>
      h('button', { type: 'button', part, onclick }, label);
    this.#connect = button('Connect new account', 'connect', () => this.#openForm(false));
    this.#reconnect = button('Reconnect', 'reconnect', () => this.#openForm(true));
    this.#rename = button('Rename', 'rename', () => this.#edit('rename'));
    this.#disconnect = button('Disconnect', 'disconnect', () => this.#edit('disconnect'));
    this.#form = new ConnectForm(
      (reconnecting, values) => void this.#start(reconnecting, values),
      () => this.#closeForm(),
    );
    this.#editor = new AccountEditor(
      (action, name) => void this.#applyEdit(action, name),
      () => this.#closeForm(),
    );
    render(
      this.body,
      h(
        'div',
        { className: 'row' },
        h('div', { className: 'grow' }, h('label', { htmlFor: selectId }, 'Connection'), this.#select),
        this.#connect,
        this.#reconnect,
        this.#rename,
        this.#disconnect,
      ),
      this.#health,
      this.#form.element,
      this.#editor.element,
    );
    // Until its integration is known and loaded: nothing to choose, nothing to connect.
    this.#showConnections('');
  }

  protected override refresh(): void {
    this.#work.abort();
    this.#work = new AbortController();
    void this.#load(this.#work.signal);
  }

  async #load(signal: AbortSignal): Promise<void> {
    const integration = this.integration;
    if (!integration) {
      this.#integration = undefined;
      this.#connections = [];
      this.#showConnections('');
      return;
    }
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
      !this.integration
        ? 'Choose a provider first'
        : this.#connections.length
          ? 'Choose an account'
          : 'No account yet',
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

  /** The buttons and the health line that fit the chosen account. */
  #showReconnect(): void {
    if (!this.#reconnect) return;
    const chosen = this.#chosen();
    this.#reconnect.hidden = !chosen || !(this.#needsReconnect || needsSignIn(chosen));
    this.#rename.disabled = this.#disconnect.disabled = !chosen;
    this.#health.textContent = healthOf(chosen);
    this.#health.className = chosen && PROBLEM_STATES.has(chosen.health.state) ? 'hint problem' : 'hint';
  }

  #chosen(): ConnectionView | undefined {
    return this.#connections.find((c) => c.id === this.#select?.value);
  }

  #edit(action: 'rename' | 'disconnect'): void {
    const chosen = this.#chosen();
    if (!chosen) return;
    this.#form.close();
    this.#editor.open(action, action === 'rename' ? (chosen.label ?? '') : nameOf(chosen));
  }

  /** Renames or disconnects the chosen account, then shows the accounts as the API now has them. */
  async #applyEdit(action: 'rename' | 'disconnect', name: string): Promise<void> {
    const chosen = this.#chosen();
    if (!chosen) return;
    const path = pathOf(action === 'rename' ? 'renameConnection' : 'disconnectConnection', {
      connectionId: chosen.id,
    });
    const done = await this.attempt(async () => {
      const client = this.requireClient();
      if (action === 'rename') await client.request('PATCH', path, { body: { label: name } });
      else await client.delete(path);
      return true;
    });
    if (!done) return;
    this.#editor.close();
    await this.#reload(action === 'rename' ? chosen.id : '');
    this.say(action === 'rename' ? `Renamed to ${name}.` : `Disconnected ${nameOf(chosen)}.`);
    this.#select.focus();
  }

  /** The integration's accounts again, `chosen` chosen among them. */
  async #reload(chosen: string): Promise<void> {
    const { connections } = await this.requireClient().get<ConnectionsResponse>(pathOf('listConnections'), {
      integration: this.integration,
    });
    this.#connections = connections;
    this.#showConnections(chosen);
  }

  #changed(): void {
    this.#needsReconnect = false;
    this.#showReconnect();
    this.emit('toolsteps-change', { integration: this.integration, connection: this.#select.value || null });
  }

  /** Shows the connect form, or (an OAuth flow with nothing to fill) starts signing in at once. */
  #openForm(reconnecting: boolean): void {
    this.#editor.close();
    const title = this.#integration?.title ?? this.integration;
    if (!this.#form.open(this.#integration, title, reconnecting)) void this.#start(reconnecting, {});
  }

  #closeForm(): void {
    this.#form.close();
    this.#editor.close();
    this.#connect.focus();
  }

  /** Starts the integration's connect flow; a pop-up is opened before anything is awaited. */
  async #start(reconnecting: boolean, values: Record<string, string>): Promise<void> {
    const flow = this.#integration?.connect;
    const popup = flow === 'popup' ? openSignInWindow() : null;
    const { apiKey, label, ...fields } = values;
    const chosen = this.#select.value;
    const body: StartConnectRequest | ReconnectRequest = reconnecting
      ? { ...(apiKey ? { apiKey } : {}), returnTo: this.#returnTo() }
      : {
          integration: this.integration,
          fields,
          ...(label ? { label } : {}),
          ...(apiKey ? { apiKey } : {}),
          returnTo: this.#returnTo(),
        };
    this.say(flow === 'api_key' ? 'Checking the key…' : 'Opening the sign-in…');
    const started = await this.attempt(() =>
      this.requireClient().startSignIn<StartConnectResponse>(
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
    this.#form.close();
    await this.#reload(connection.id);
    this.say(`Connected ${nameOf(connection)}.`);
    this.emit('toolsteps-connected', { integration: this.integration, connection });
    this.emit('toolsteps-change', { integration: this.integration, connection: connection.id });
    this.#select.focus();
  }

  protected override styles(): string {
    return 'button.danger { color: var(--_danger); border-color: var(--_danger); } [part=health] { margin: 4px 0 0; }';
  }

  /** Where a redirect sign-in brings the browser back: this page, without its fragment. */
  #returnTo(): string {
    const url = new URL(location.href);
    url.hash = '';
    return url.toString();
  }
}

import { ApiError } from '../client/api-error.js';
import { type BuilderClient, configuredClient } from '../client/builder-client.js';
import { h, render } from './dom.js';
import { THEME_CSS } from './theme.js';

/**
 * HTMLElement where there is one. On a server (Node, a framework's server
 * render) there is none, and a class cannot extend `undefined`: importing
 * the kit there must not throw, so its classes extend a stand-in that is
 * never constructed (no element is defined without `customElements`).
 */
const ElementBase: typeof HTMLElement =
  typeof HTMLElement === 'undefined' ? (class {} as typeof HTMLElement) : HTMLElement;

/**
 * What every element of the kit shares: an open shadow root with the theme,
 * the API client (its own `client` property, or the one `configure()` set),
 * DOM events that bubble out of the shadow root, and one status line that
 * screen readers hear (`role=status`, or `role=alert` for errors).
 */
export abstract class ToolstepsElement extends ElementBase {
  #client: BuilderClient | undefined;
  #started = false;
  protected readonly root: ShadowRoot;
  protected readonly statusLine: HTMLElement;
  protected readonly body: HTMLElement;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open', delegatesFocus: false });
    this.statusLine = h('p', { className: 'status', part: 'status', role: 'status' });
    this.body = h('div', { part: 'body' });
    render(this.root, h('style', null, THEME_CSS + this.styles()), this.body, this.statusLine);
  }

  /** The API client this element talks through. */
  get client(): BuilderClient | undefined {
    return this.#client ?? configuredClient();
  }

  set client(client: BuilderClient | undefined) {
    this.#client = client;
    if (this.isConnected) this.refresh();
  }

  /** Builds the element once, then loads its data whenever it is attached and a client is available. */
  connectedCallback(): void {
    if (!this.#started) {
      this.#started = true;
      this.setup();
    }
    document.addEventListener('toolsteps-configured', this.#onConfigured);
    if (this.client) this.refresh();
  }

  /** A removed element stops listening for configure(): it neither reloads nor stays reachable from the document. */
  disconnectedCallback(): void {
    document.removeEventListener('toolsteps-configured', this.#onConfigured);
  }

  readonly #onConfigured = () => this.refresh();

  /** Extra CSS of this element. */
  protected styles(): string {
    return '';
  }

  /** Builds the element's fixed skeleton, once. */
  protected abstract setup(): void;

  /** Loads what the element shows from the API; called when connected and when the client changes. */
  protected refresh(): void {}

  /** The client, or an ApiError that tells the host page to configure one, shown in the status line. */
  protected requireClient(): BuilderClient {
    const client = this.client;
    if (!client) {
      throw new ApiError(
        'No builder API is configured: call configure({ token }) or set the element’s client.',
        0,
        'not_configured',
      );
    }
    return client;
  }

  /** Fires `name` with `detail`; it bubbles out of every shadow root, as a click does. */
  protected emit<T>(name: string, detail: T): boolean {
    return this.dispatchEvent(
      new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }),
    );
  }

  /** Shows a message in the status line, which screen readers announce politely. */
  protected say(message: string): void {
    this.statusLine.className = 'status';
    this.statusLine.setAttribute('role', 'status');
    this.statusLine.textContent = message;
  }

  /** Shows an error in words (never a stack) and tells the host with `toolsteps-error`. */
  protected fail(error: unknown): void {
    if ((error as Error)?.name === 'AbortError') return;
    const message = error instanceof Error ? error.message : String(error);
    this.statusLine.className = 'status error';
    this.statusLine.setAttribute('role', 'alert');
    this.statusLine.textContent = message;
    this.emit('toolsteps-error', {
      message,
      code: error instanceof ApiError ? error.code : 'error',
      status: error instanceof ApiError ? error.status : 0,
    });
  }

  /** Runs `work`, showing its failure; resolves undefined when it failed. */
  protected async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }
}

/**
 * The reference builder (`toolsteps ui`): the seed's flows on one page made
 * of the kit's elements, wired by their events. The page gets its token in
 * the URL's fragment (`#token=...`: a fragment never reaches a server, a log
 * or a Referer), keeps it in this tab's sessionStorage so a redirect sign-in
 * can come back to it, and removes it from the address bar.
 */
import type { IntegrationsResponse, StepHit } from '../index.js';
import { configure, sampleOf, type ToolstepsEventMap } from '../index.js';
import { wireTabs } from './page-tabs.js';

const TOKEN_KEY = 'toolsteps-ui-token';

/** The token the URL brought (the fragment; a `?token=` query is taken too, and dropped), else the tab's. */
function sessionToken(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const fromUrl = fragment.get('token') ?? query.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    query.delete('token');
    const rest = query.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
  }
  return fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function on<K extends keyof ToolstepsEventMap>(
  target: EventTarget,
  name: K,
  listener: (event: ToolstepsEventMap[K]) => void,
): void {
  target.addEventListener(name, listener as EventListener);
}

/** The Steps tab: search, then the chosen step's account, form and variables. */
function wireSteps(): void {
  const builder = byId('step-builder');
  const picker = byId<HTMLElementTagNameMap['toolsteps-connection-picker']>('step-connection');
  const form = byId<HTMLElementTagNameMap['toolsteps-step-form']>('step-form');
  const mapper = byId<HTMLElementTagNameMap['toolsteps-variable-mapper']>('step-variables');
  // The agent's input variables, offered for insertion into the form, with sample values for a test.
  form.variables = { subject: 'Printer on fire', requester: 'ann@example.com' };
  let chosen: StepHit | undefined;
  on(document, 'toolsteps-select', (event) => {
    chosen = event.detail.step;
    builder.hidden = false;
    picker.integration = chosen.integration;
    form.setAttribute('step', chosen.id);
  });
  on(picker, 'toolsteps-change', (event) => {
    const connection = (event.detail.connection as string | null) ?? '';
    if (connection) form.setAttribute('connection', connection);
    else form.removeAttribute('connection');
  });
  on(form, 'toolsteps-loaded', (event) => {
    const { step } = event.detail;
    if (mapper.dataset.step !== step.id) {
      mapper.dataset.step = step.id;
      mapper.sample = sampleOf(step.output);
      mapper.defaults = step.variables;
      form.mapping = mapper.mapping;
    }
  });
  on(mapper, 'toolsteps-change', (event) => {
    form.mapping = event.detail.mapping as Record<string, string>;
  });
  on(form, 'toolsteps-test-result', (event) => {
    const { result, error } = event.detail;
    if (result && 'output' in result) mapper.sample = result.output;
    if (error?.needsReconnect) picker.markNeedsReconnect();
  });
}

/** The Connections tab: one picker per integration. */
async function wireConnections(client: ReturnType<typeof configure>): Promise<void> {
  const list = byId('connections');
  try {
    const { integrations } = await client.get<IntegrationsResponse>('/v1/integrations');
    for (const integration of integrations) {
      const section = document.createElement('section');
      section.setAttribute('aria-label', integration.title);
      const heading = document.createElement('h2');
      heading.textContent = integration.title;
      const picker = document.createElement('toolsteps-connection-picker');
      picker.integration = integration.id;
      section.append(heading, picker);
      list.append(section);
    }
  } catch {
    // The elements on the page say what went wrong (an expired session, most often).
  }
}

function start(): void {
  const session = byId('session');
  wireTabs();
  on(document, 'toolsteps-error', (event) => {
    if (event.detail.status !== 401) return;
    session.className = 'error';
    session.setAttribute('role', 'alert');
    session.textContent = event.detail.message;
  });
  const token = sessionToken();
  if (!token) {
    session.className = 'error';
    session.textContent = 'No builder session: open the address `toolsteps ui` printed.';
    return;
  }
  const client = configure({ token });
  wireSteps();
  void wireConnections(client);
}

start();

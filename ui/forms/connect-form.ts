import type { IntegrationView } from '../client/api-types.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { fieldsOf } from './schema-fields.js';

/** The fields a person fills to connect: the integration's public fields (not when reconnecting), and the key for api_key. */
function connectRows(integration: IntegrationView | undefined, reconnecting: boolean): HTMLElement[] {
  const fields = reconnecting ? [] : fieldsOf(integration?.fields ?? {});
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
  if (!reconnecting && (rows.length || integration?.connect === 'api_key')) {
    // Asked where a form is shown anyway; a sign-in's account is named from the provider's answer when left empty.
    const id = uniqueId('account-label');
    rows.push(
      h(
        'div',
        { className: 'field' },
        h('label', { htmlFor: id }, 'Account name (optional)'),
        h('input', { id, name: 'label', maxLength: 200, autocomplete: 'off' }),
        h(
          'p',
          { className: 'hint' },
          'How the account is listed. Left empty: the provider’s name for it, where it gives one.',
        ),
      ),
    );
  }
  if (integration?.connect === 'api_key') {
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

/**
 * The connect (or reconnect) form of `<toolsteps-connection-picker>` (parts
 * `form`, `submit`): hidden until opened, it hands the values filled in,
 * trimmed, to `submit`, and `cancel` closes it.
 */
export class ConnectForm {
  readonly element: HTMLFormElement;

  constructor(
    private readonly submit: (reconnecting: boolean, values: Record<string, string>) => void,
    private readonly cancel: () => void,
  ) {
    this.element = h('form', { part: 'form', hidden: true, onsubmit: (e: Event) => this.#onSubmit(e) });
  }

  /** Shows the form for `integration`; false, and nothing shown, when there is nothing to fill. */
  open(integration: IntegrationView | undefined, title: string, reconnecting: boolean): boolean {
    const rows = connectRows(integration, reconnecting);
    this.element.dataset.reconnect = reconnecting ? 'yes' : '';
    if (!rows.length) return false;
    render(
      this.element,
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
            integration?.connect === 'api_key' ? 'Save API key' : 'Continue to sign in',
          ),
          h('button', { type: 'button', onclick: () => this.cancel() }, 'Cancel'),
        ),
      ),
    );
    this.element.hidden = false;
    this.element.querySelector('input')?.focus();
    return true;
  }

  /** Hides the form and empties it: nothing typed stays in the page. */
  close(): void {
    this.element.hidden = true;
    render(this.element);
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    const values: Record<string, string> = {};
    for (const input of this.element.querySelectorAll('input')) {
      if (input.value.trim()) values[input.name] = input.value.trim();
    }
    this.submit(this.element.dataset.reconnect === 'yes', values);
  }
}

import { h, render, uniqueId } from '../dom/dom.js';

/**
 * The picker's small form for the chosen account (part `form`): "Rename"
 * asks for the name people will see, "Disconnect" asks once more before
 * the account is removed (steps that use it stop working). Hidden until
 * opened; `done` gets the new name, or '' for a confirmed disconnect.
 */
export class AccountEditor {
  readonly element: HTMLFormElement;

  constructor(
    private readonly done: (action: 'rename' | 'disconnect', name: string) => void,
    private readonly cancel: () => void,
  ) {
    this.element = h('form', { part: 'form', hidden: true, onsubmit: (e: Event) => this.#onSubmit(e) });
  }

  /** Opens the rename form (the current name filled in) or the disconnect question for `name`. */
  open(action: 'rename' | 'disconnect', name: string): void {
    const id = uniqueId('account-name');
    this.element.dataset.action = action;
    const question =
      action === 'rename'
        ? [
            h('label', { htmlFor: id }, 'Account name'),
            h('input', {
              id,
              name: 'label',
              value: name,
              required: true,
              maxLength: 200,
              autocomplete: 'off',
            }),
          ]
        : [
            h(
              'p',
              null,
              `Disconnect ${name}? Steps and triggers that use this account stop working until another is chosen.`,
            ),
          ];
    render(
      this.element,
      h(
        'fieldset',
        null,
        h('legend', null, action === 'rename' ? 'Rename account' : 'Disconnect account'),
        question,
        h(
          'div',
          { className: 'row' },
          h(
            'button',
            { type: 'submit', className: action === 'rename' ? 'primary' : 'danger', part: 'submit' },
            action === 'rename' ? 'Save name' : 'Disconnect account',
          ),
          h('button', { type: 'button', onclick: () => this.cancel() }, 'Cancel'),
        ),
      ),
    );
    this.element.hidden = false;
    (this.element.querySelector('input') ?? this.element.querySelector('button'))?.focus();
  }

  close(): void {
    this.element.hidden = true;
    render(this.element);
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    const action = this.element.dataset.action === 'rename' ? 'rename' : 'disconnect';
    const name = this.element.querySelector('input')?.value.trim() ?? '';
    if (action === 'rename' && !name) return;
    this.done(action, name);
  }
}

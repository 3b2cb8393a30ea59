import type { OptionItem } from '../client/api-types.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { fieldFrame } from './form-field.js';
import type { OptionsField } from './options-field.js';
import { type OptionsLoader, OptionsPager } from './options-pager.js';
import type { FieldSpec } from './schema-fields.js';

/**
 * A list field (tags, followers, a trigger's statuses) as a multi-select
 * combobox: the values chosen as chips (each with its Remove button), a
 * search box, and under it, while it has the focus, the choices as a
 * listbox, narrowed as the box is typed in: on the server for a field with
 * options (the account's users, its tags), here for a closed list. ArrowDown
 * and ArrowUp move through the choices, Enter chooses or unchooses one, and
 * where the items are free text or ids (tags), Enter adds what was typed;
 * Escape closes the list. One Tab stop, however many choices. It reads as
 * the list of values chosen, so the step gets a list, and nothing while none is.
 */
class MultiSelectControl implements OptionsField {
  readonly element: HTMLElement;
  readonly #frame;
  readonly #search: HTMLInputElement;
  readonly #chips: HTMLUListElement;
  readonly #choices: HTMLDivElement;
  readonly #more: HTMLButtonElement;
  #chosen: string[] = [];
  #labels = new Map<string, string>();
  /** The choices: the schema's own for a closed list, else the pages the account answers. */
  readonly #fixed: OptionItem[];
  readonly #pager: OptionsPager | undefined;
  #shown: OptionItem[] = [];
  #active = -1;
  #open = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #freeEntry: boolean;

  constructor(
    readonly spec: FieldSpec,
    readonly load: OptionsLoader | undefined,
    readonly onFailure: (error: unknown) => void,
  ) {
    this.#frame = fieldFrame(spec);
    this.#fixed = spec.choices.map((value) => ({ value, label: spec.labelOf(value) }));
    this.#pager = load ? new OptionsPager(load, () => this.#show(), onFailure) : undefined;
    this.#freeEntry = spec.kind === 'list';
    const noun = spec.title.toLowerCase();
    const listId = uniqueId('choices');
    this.#chips = h('ul', { className: 'chips', part: 'chips', 'aria-label': `${spec.title} chosen` });
    this.#search = h('input', {
      id: this.#frame.id,
      type: 'text',
      role: 'combobox',
      part: 'control multi-search',
      autocomplete: 'off',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
      'aria-describedby': this.#frame.describedBy,
      placeholder: load
        ? `Search ${this.#freeEntry ? 'or add ' : ''}${noun}…`
        : this.#freeEntry
          ? 'Type one, then Enter'
          : `Choose ${noun}…`,
      onfocus: () => this.#setOpen(true),
      onclick: () => this.#setOpen(true),
      oninput: () => this.#onType(),
      onkeydown: (event: KeyboardEvent) => this.#onKey(event),
    });
    this.#choices = h('div', {
      id: listId,
      className: 'choices',
      part: 'choices',
      role: 'listbox',
      'aria-multiselectable': 'true',
      'aria-label': `${spec.title} choices`,
      hidden: true,
      // The focus stays in the search box while a choice is clicked.
      onmousedown: (event: Event) => event.preventDefault(),
    });
    this.#more = h(
      'button',
      { type: 'button', part: 'options-more', hidden: true, onclick: () => void this.#fetch(true) },
      `More ${noun} choices`,
    );
    const box = h('div', { className: 'multi' }, this.#chips, this.#search, this.#choices, this.#more);
    this.element = this.#frame.wrap(box);
    this.element.addEventListener('focusout', (event) => {
      if (!this.element.contains(event.relatedTarget as Node | null)) this.#setOpen(false);
    });
    this.#show();
  }

  read(): string[] {
    return [...this.#chosen];
  }

  write(value: unknown): void {
    const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    this.#chosen = [...new Set(values.map(String))];
    this.#show();
  }

  setProblem(message: string | undefined): void {
    this.#frame.setProblem(this.#search, message);
  }

  focus(): void {
    this.#search.focus();
  }

  insertVariable(name: string): void {
    this.#toggle(`{{${name}}}`);
  }

  refill(): Promise<void> {
    return this.#fetch(false);
  }

  reload(): Promise<void> {
    this.#chosen = [];
    return this.#fetch(false);
  }

  #setOpen(open: boolean): void {
    this.#open = open;
    if (!open) this.#active = -1;
    this.#showChoices();
  }

  #onType(): void {
    this.#open = true;
    this.#active = -1;
    if (!this.load) {
      this.#showChoices();
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#fetch(false), 250);
  }

  #onKey(event: KeyboardEvent): void {
    const move = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (move) {
      this.#open = true;
      this.#active = Math.max(0, Math.min(this.#shown.length - 1, this.#active + move));
      this.#showChoices();
    } else if (event.key === 'Enter') {
      const item = this.#shown[this.#active];
      if (item) this.#toggle(String(item.value));
      else this.#addTyped();
    } else if (event.key === 'Escape' && this.#open) {
      this.#setOpen(false);
    } else if (event.key === 'Backspace' && !this.#search.value && this.#chosen.length) {
      this.#toggle(this.#chosen[this.#chosen.length - 1]!);
    } else {
      return;
    }
    event.preventDefault();
  }

  #addTyped(): void {
    const typed = this.#search.value.trim();
    if (!typed || !this.#freeEntry) return;
    this.#search.value = '';
    if (!this.#chosen.includes(typed)) this.#toggle(typed);
    if (this.load) void this.#fetch(false);
    else this.#showChoices();
  }

  #toggle(value: string): void {
    this.#chosen = this.#chosen.includes(value)
      ? this.#chosen.filter((chosen) => chosen !== value)
      : [...this.#chosen, value];
    this.#show();
    this.element.dispatchEvent(new Event('change', { bubbles: true }));
  }

  async #fetch(append: boolean): Promise<void> {
    await this.#pager?.fetch(this.#search.value.trim(), append);
  }

  get #items(): OptionItem[] {
    return this.#pager?.items ?? this.#fixed;
  }

  get #state(): OptionsPager['state'] {
    return this.#pager?.state ?? 'idle';
  }

  #labelOf(value: string): string {
    return this.#labels.get(value) ?? value;
  }

  #show(): void {
    for (const item of this.#items) this.#labels.set(String(item.value), item.label);
    render(
      this.#chips,
      this.#chosen.map((value) =>
        h(
          'li',
          { className: 'chip', part: 'chip' },
          h('span', null, this.#labelOf(value)),
          h(
            'button',
            {
              type: 'button',
              part: 'chip-remove',
              'aria-label': `Remove ${this.#labelOf(value)}`,
              onclick: () => {
                this.#toggle(value);
                this.focus();
              },
            },
            '×',
          ),
        ),
      ),
    );
    this.#chips.hidden = !this.#chosen.length;
    this.#showChoices();
    this.#more.hidden = !this.#pager?.cursor;
  }

  /** The listbox while the box has the focus: the loading, failed or empty state, or the choices. */
  #showChoices(): void {
    const filter = this.load ? '' : this.#search.value.trim().toLowerCase();
    this.#shown = this.#items.filter(
      (item) => !filter || `${item.label} ${item.value}`.toLowerCase().includes(filter),
    );
    const typed = this.#search.value.trim();
    const note = (text: string, className = 'hint') => h('div', { className }, text);
    this.#choices.setAttribute('aria-busy', String(this.#state === 'loading'));
    render(
      this.#choices,
      this.#state === 'loading'
        ? note('Loading choices…', 'hint loading')
        : this.#state === 'failed'
          ? note('The choices could not be loaded.', 'problem')
          : this.#freeEntry && typed && !this.#chosen.includes(typed)
            ? note(`Enter adds “${typed}”.`)
            : !this.#shown.length
              ? note(filter ? `Nothing matches “${filter}”.` : 'No choices.')
              : null,
      this.#state === 'loading'
        ? null
        : this.#shown.map((item, index) => {
            const value = String(item.value);
            return h(
              'div',
              {
                id: `${this.#choices.id}-${index}`,
                role: 'option',
                part: 'choice',
                className: index === this.#active ? 'choice active' : 'choice',
                'aria-selected': String(this.#chosen.includes(value)),
                onclick: () => this.#toggle(value),
              },
              item.label,
              item.description ? h('span', { className: 'hint' }, ` ${item.description}`) : null,
            );
          }),
    );
    const activeId = this.#active >= 0 ? `${this.#choices.id}-${this.#active}` : '';
    if (activeId) this.#search.setAttribute('aria-activedescendant', activeId);
    else this.#search.removeAttribute('aria-activedescendant');
    this.#choices.querySelector('.active')?.scrollIntoView({ block: 'nearest' });
    this.#choices.hidden = !this.#open;
    this.#search.setAttribute('aria-expanded', String(this.#open));
  }
}
/** A list field as chips and a multi-select listbox; with `load`, its choices come from the account's options. */
export function multiSelectField(
  spec: FieldSpec,
  load: OptionsLoader | undefined,
  onFailure: (error: unknown) => void,
): OptionsField {
  return new MultiSelectControl(spec, load, onFailure);
}

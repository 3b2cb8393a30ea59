import { h, render } from '../dom/dom.js';
import { emptyChoice, type FieldFrame, type FormField, fieldFrame } from './form-field.js';
import { type OptionsLoader, OptionsPager } from './options-pager.js';
import type { FieldSpec } from './schema-fields.js';

export interface OptionsField extends FormField {
  /** Loads the first page, keeping the choice (the form was drawn again for the same account). */
  refill(): Promise<void>;
  /** Clears the choice and loads the first page again (a field this one depends on changed). */
  reload(): Promise<void>;
}

/**
 * A field whose choices come from the connected account (an assignee, a
 * project): a dropdown labelled by the field's title, a search box that
 * narrows it on the server, and "More" for the next page. The chosen value
 * stays chosen while the list is searched or paged.
 */
class OptionsFieldControl implements OptionsField {
  readonly element: HTMLElement;
  readonly #frame: FieldFrame;
  readonly #select: HTMLSelectElement;
  readonly #search: HTMLInputElement;
  readonly #more: HTMLButtonElement;
  readonly #pager: OptionsPager;
  #chosen = '';
  /** Values chosen that no page holds: workflow variables, or a value set from outside. */
  #extra: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly spec: FieldSpec,
    readonly load: OptionsLoader,
    readonly onFailure: (error: unknown) => void,
  ) {
    this.#frame = fieldFrame(spec);
    this.#pager = new OptionsPager(load, () => this.#show(), onFailure);
    const title = spec.title;
    this.#select = h('select', {
      id: this.#frame.id,
      name: spec.name,
      part: 'control options',
      required: spec.required,
      'aria-describedby': this.#frame.describedBy,
      onchange: () => {
        this.#chosen = this.#select.value;
      },
    });
    this.#search = h('input', {
      type: 'search',
      part: 'options-search',
      autocomplete: 'off',
      // A list the account answers whole needs no search box beside it.
      hidden: !spec.options?.searchable,
      'aria-label': `Search ${title}`,
      placeholder: `Search ${title.toLowerCase()}…`,
      oninput: () => {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void this.#fetch(false), 250);
      },
      onkeydown: (event: KeyboardEvent) => this.#onSearchKey(event),
    });
    this.#more = h(
      'button',
      { type: 'button', part: 'options-more', hidden: true, onclick: () => void this.#fetch(true) },
      `More ${title.toLowerCase()} choices`,
    );
    const tools = h(
      'div',
      { className: 'row options-tools' },
      h('div', { className: 'grow' }, this.#search),
      this.#more,
    );
    this.element = this.#frame.wrap(this.#select, tools);
    this.#show();
  }

  read(): string {
    return this.#select.value;
  }

  write(value: unknown): void {
    this.#chosen = value === undefined || value === null ? '' : String(value);
    this.#show();
  }

  setProblem(message: string | undefined): void {
    this.#frame.setProblem(this.#select, message);
  }

  focus(): void {
    this.#select.focus();
  }

  insertVariable(name: string): void {
    const value = `{{${name}}}`;
    if (!this.#extra.includes(value)) this.#extra = [...this.#extra, value];
    this.#chosen = value;
    this.#show();
    this.#select.dispatchEvent(new Event('change', { bubbles: true }));
  }

  refill(): Promise<void> {
    return this.#fetch(false);
  }

  reload(): Promise<void> {
    this.#chosen = '';
    return this.#fetch(false);
  }

  #onSearchKey(event: KeyboardEvent): void {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    clearTimeout(this.#timer);
    void this.#fetch(false).then(() => this.#select.focus());
  }

  #fetch(append: boolean): Promise<void> {
    return this.#pager.fetch(this.#search.value.trim(), append);
  }

  #show(): void {
    const { items, state, cursor } = this.#pager;
    const loaded = new Set(items.map((item) => String(item.value)));
    const kept = [this.#chosen, ...this.#extra].filter((value) => value && !loaded.has(value));
    const empty =
      state === 'loading'
        ? 'Loading choices…'
        : state === 'failed'
          ? 'Choices could not be loaded'
          : items.length || kept.length
            ? emptyChoice(this.spec)
            : 'No choices';
    this.#select.setAttribute('aria-busy', String(state === 'loading'));
    render(
      this.#select,
      h('option', { value: '' }, empty),
      items.map((item) =>
        h(
          'option',
          { value: String(item.value), title: item.description },
          item.description ? `${item.label} (${item.description})` : item.label,
        ),
      ),
      [...new Set(kept)].map((value) => h('option', { value }, value)),
    );
    this.#select.value = this.#chosen;
    this.#more.hidden = !cursor;
  }
}

export function optionsField(
  spec: FieldSpec,
  load: OptionsLoader,
  onFailure: (error: unknown) => void,
): OptionsField {
  return new OptionsFieldControl(spec, load, onFailure);
}

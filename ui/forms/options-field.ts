import type { OptionItem, OptionsResponse } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { type FieldFrame, type FormField, fieldFrame } from './form-field.js';
import type { FieldSpec } from './schema-fields.js';

/** Fetches one page of a field's choices from the connected account. */
export type OptionsLoader = (request: { query?: string; cursor?: string }) => Promise<OptionsResponse>;

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
  #items: OptionItem[] = [];
  #cursor: string | null = null;
  #chosen = '';
  /** Values chosen that no page holds: workflow variables, or a value set from outside. */
  #extra: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Numbers each request, so an answer that comes after a newer one's (a slow search, a stale reload) is dropped. */
  #requests = 0;

  constructor(
    readonly spec: FieldSpec,
    readonly load: OptionsLoader,
    readonly onFailure: (error: unknown) => void,
  ) {
    this.#frame = fieldFrame(spec);
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

  async #fetch(append: boolean): Promise<void> {
    const request = ++this.#requests;
    try {
      const query = this.#search.value.trim();
      const cursor = append ? this.#cursor : null;
      const page = await this.load({ ...(query ? { query } : {}), ...(cursor ? { cursor } : {}) });
      if (request !== this.#requests) return;
      this.#items = append ? [...this.#items, ...page.options] : page.options;
      this.#cursor = page.nextCursor;
      this.#show();
    } catch (error) {
      if (request === this.#requests) this.onFailure(error);
    }
  }

  #show(): void {
    const loaded = new Set(this.#items.map((item) => String(item.value)));
    const kept = [this.#chosen, ...this.#extra].filter((value) => value && !loaded.has(value));
    const empty =
      this.#items.length || kept.length ? (this.spec.required ? 'Choose…' : '(none)') : 'No choices loaded';
    render(
      this.#select,
      h('option', { value: '' }, empty),
      this.#items.map((item) =>
        h(
          'option',
          { value: String(item.value), title: item.description },
          item.description ? `${item.label} (${item.description})` : item.label,
        ),
      ),
      [...new Set(kept)].map((value) => h('option', { value }, value)),
    );
    this.#select.value = this.#chosen;
    this.#more.hidden = !this.#cursor;
  }
}

export function optionsField(
  spec: FieldSpec,
  load: OptionsLoader,
  onFailure: (error: unknown) => void,
): OptionsField {
  return new OptionsFieldControl(spec, load, onFailure);
}

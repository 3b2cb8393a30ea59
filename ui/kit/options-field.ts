import type { OptionItem, OptionsResponse } from './api-types.js';
import { h, render, uniqueId } from './dom.js';
import { type FormField, fieldFrame } from './form-field.js';
import type { FieldSpec } from './schema-fields.js';

/** Fetches one page of a field's choices from the connected account. */
export type OptionsLoader = (request: { query?: string; cursor?: string }) => Promise<OptionsResponse>;

export interface OptionsField extends FormField {
  /** Clears the choice and loads the first page again (the account, or a field this one depends on, changed). */
  reload(): Promise<void>;
}

/**
 * A field whose choices come from the connected account (an assignee, a
 * project): a dropdown labelled by the field's title, a search box that
 * narrows it on the server, and "More" for the next page. The chosen value
 * stays chosen while the list is searched or paged.
 */
export function optionsField(
  spec: FieldSpec,
  load: OptionsLoader,
  onFailure: (error: unknown) => void,
): OptionsField {
  const frame = fieldFrame(spec);
  const select = h('select', {
    id: frame.id,
    name: spec.name,
    part: 'control options',
    required: spec.required,
    'aria-describedby': frame.describedBy,
  });
  const searchId = uniqueId('options-search');
  const search = h('input', {
    id: searchId,
    type: 'search',
    part: 'options-search',
    autocomplete: 'off',
    'aria-label': `Search ${spec.title}`,
    placeholder: `Search ${spec.title.toLowerCase()}…`,
  });
  const more = h(
    'button',
    { type: 'button', part: 'options-more', hidden: true },
    `More ${spec.title.toLowerCase()} choices`,
  );
  let items: OptionItem[] = [];
  let cursor: string | null = null;
  let chosen = '';
  let extra: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const show = () => {
    const values = new Set(items.map((item) => String(item.value)));
    const kept = [chosen, ...extra].filter((value) => value && !values.has(value));
    render(
      select,
      h(
        'option',
        { value: '' },
        items.length || kept.length ? (spec.required ? 'Choose…' : '(none)') : 'No choices loaded',
      ),
      items.map((item) =>
        h(
          'option',
          { value: String(item.value), title: item.description },
          item.description ? `${item.label} (${item.description})` : item.label,
        ),
      ),
      kept.map((value) => h('option', { value }, value)),
    );
    select.value = chosen;
    more.hidden = !cursor;
  };

  const fetchPage = async (append: boolean) => {
    try {
      const query = search.value.trim();
      const page = await load({ ...(query ? { query } : {}), ...(append && cursor ? { cursor } : {}) });
      items = append ? [...items, ...page.options] : page.options;
      cursor = page.nextCursor;
      show();
    } catch (error) {
      onFailure(error);
    }
  };

  select.addEventListener('change', () => {
    chosen = select.value;
  });
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void fetchPage(false), 250);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    clearTimeout(timer);
    void fetchPage(false).then(() => select.focus());
  });
  more.addEventListener('click', () => void fetchPage(true));
  show();

  return {
    spec,
    element: frame.wrap(
      select,
      h('div', { className: 'row options-tools' }, h('div', { className: 'grow' }, search), more),
    ),
    read: () => select.value,
    write: (value) => {
      chosen = value === undefined || value === null ? '' : String(value);
      show();
    },
    setProblem: (message) => frame.setProblem(select, message),
    focus: () => select.focus(),
    insertVariable: (name) => {
      const value = `{{${name}}}`;
      if (!extra.includes(value)) extra = [...extra, value];
      chosen = value;
      show();
      select.dispatchEvent(new Event('change', { bubbles: true }));
    },
    // The account or a field this one depends on changed: the old choice may not exist any more.
    reload: () => {
      chosen = '';
      return fetchPage(false);
    },
  };
}

import { pathOf } from '../client/api-routes.js';
import type { SearchResponse, StepHit } from '../client/api-types.js';
import { returnedChoice } from '../client/connect-flow.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';

const ACCESS_WORDS = { read: 'reads', write: 'writes', destructive: 'destructive' } as const;

/**
 * `<toolsteps-step-search>`: the tool-step search bar. Typing searches
 * (ranked as `toolsteps search`); each result shows its integration, title,
 * access and cost; choosing one fires `toolsteps-select` with the hit.
 * Keyboard: type, ArrowDown into the results, ArrowUp/ArrowDown between
 * them, Enter or Space to choose, Escape back to the box.
 *
 * Attributes: `query` (the starting search), `limit` (default 20).
 * Events: `toolsteps-select` ({ step: StepHit }), `toolsteps-change` ({ query, hits }).
 * Parts: `input`, `results`, `result`, `title`, `integration`, `access`, `cost`.
 */
export class ToolstepsStepSearch extends ToolstepsElement {
  static readonly tag = 'toolsteps-step-search';
  #input!: HTMLInputElement;
  #results!: HTMLUListElement;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inflight: AbortController | undefined;
  #hits: StepHit[] = [];

  get hits(): readonly StepHit[] {
    return this.#hits;
  }

  protected override setup(): void {
    const inputId = uniqueId('search');
    this.#input = h('input', {
      id: inputId,
      type: 'search',
      part: 'input',
      autocomplete: 'off',
      placeholder: 'zendesk, create ticket, deploy…',
      value: this.getAttribute('query') ?? '',
      oninput: () => this.#schedule(),
      onkeydown: (event: KeyboardEvent) => this.#onInputKey(event),
    });
    this.#results = h('ul', {
      className: 'list',
      part: 'results',
      'aria-label': 'Tool steps found',
      hidden: true,
    });
    render(
      this.body,
      h('label', { htmlFor: inputId, part: 'label' }, 'Search tool steps'),
      this.#input,
      this.#results,
    );
  }

  protected override refresh(): void {
    // Back from a redirect sign-in: the step chosen before it is chosen again (after the host's listeners are on).
    const returned = returnedChoice();
    if (returned) queueMicrotask(() => this.#choose(returned));
    if (this.#input.value.trim()) void this.search(this.#input.value);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.search(this.#input.value), 200);
  }

  #onInputKey(event: KeyboardEvent): void {
    if (event.key === 'Enter') {
      event.preventDefault();
      clearTimeout(this.#timer);
      void this.search(this.#input.value);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      this.#focusResult(0);
    }
  }

  /** Searches now and shows the hits. */
  async search(query: string): Promise<readonly StepHit[]> {
    this.#inflight?.abort();
    const controller = new AbortController();
    this.#inflight = controller;
    const limit = this.getAttribute('limit') ?? '20';
    const answer = await this.attempt(() =>
      this.requireClient().get<SearchResponse>(
        pathOf('searchSteps'),
        { q: query.trim(), limit },
        controller.signal,
      ),
    );
    if (!answer || controller.signal.aborted) return this.#hits;
    this.#hits = answer.hits;
    this.#show(query);
    this.emit('toolsteps-change', { query, hits: this.#hits });
    return this.#hits;
  }

  #show(query: string): void {
    this.#results.hidden = !query.trim();
    render(
      this.#results,
      this.#hits.map((hit, index) => this.#row(hit, index)),
      this.#hits.length ? null : h('li', null, `No tool step matches “${query}”.`),
    );
    this.say(
      query.trim() ? `${this.#hits.length} tool step${this.#hits.length === 1 ? '' : 's'} found.` : '',
    );
  }

  #row(hit: StepHit, index: number): HTMLLIElement {
    const detailsId = uniqueId('hit');
    const button = h(
      'button',
      {
        type: 'button',
        part: 'result',
        className: 'result',
        'aria-describedby': detailsId,
        onclick: () => this.#choose(hit),
        onkeydown: (event: KeyboardEvent) => this.#onResultKey(event, index),
      },
      h('span', { part: 'title' }, hit.title),
    );
    const details = h(
      'span',
      { id: detailsId, className: 'hint details' },
      h('span', { part: 'integration' }, hit.integrationTitle),
      ' · ',
      h('span', { part: 'access', className: `badge ${hit.access}` }, ACCESS_WORDS[hit.access]),
      ' · ',
      h('span', { part: 'cost' }, hit.cost ? `paid: ${hit.cost}` : 'free'),
    );
    return h('li', { 'data-step': hit.id }, button, ' ', details);
  }

  #onResultKey(event: KeyboardEvent, index: number): void {
    if (event.key === 'ArrowDown') this.#focusResult(index + 1);
    else if (event.key === 'ArrowUp') index === 0 ? this.#input.focus() : this.#focusResult(index - 1);
    else if (event.key === 'Escape') this.#input.focus();
    else return;
    event.preventDefault();
  }

  #focusResult(index: number): void {
    const buttons = this.#results.querySelectorAll<HTMLButtonElement>('button.result');
    buttons[Math.min(index, buttons.length - 1)]?.focus();
  }

  #choose(hit: StepHit): void {
    for (const row of this.#results.querySelectorAll('li')) {
      row.toggleAttribute('aria-current', row.getAttribute('data-step') === hit.id);
    }
    this.say(`${hit.title} chosen.`);
    this.emit('toolsteps-select', { step: hit });
  }

  protected override styles(): string {
    return `
      .list { margin-top: var(--_gap); }
      button.result { border: 0; background: none; padding: 2px 0; font-weight: 600; text-align: left; }
      button.result:hover { text-decoration: underline; }
      li[aria-current] { outline: 2px solid var(--_accent); }
    `;
  }
}

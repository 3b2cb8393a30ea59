import { pathOf } from '../client/api-routes.js';
import type { SearchResponse, StepHit } from '../client/api-types.js';
import { returnedChoice } from '../client/connect-flow.js';
import { h, render, uniqueId } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { integrationIcon } from '../views/integration-icons.js';

const ACCESS_WORDS = { read: 'reads', write: 'writes', destructive: 'destructive' } as const;

/**
 * `<toolsteps-step-search>`: the tool-step search bar. Typing searches
 * (ranked as `toolsteps search`); each result shows its integration, title,
 * access and cost; choosing one fires `toolsteps-select` with the hit and
 * closes the results (typing, or ArrowDown, opens them again), so the form
 * below comes into view. "Searching…" shows while the API answers.
 * Keyboard: type, ArrowDown into the results, ArrowUp/ArrowDown between
 * them, Enter or Space to choose, Escape back to the box.
 *
 * Attributes: `query` (the starting search), `limit` (default 20).
 * Events: `toolsteps-select` ({ step: StepHit }), `toolsteps-change` ({ query, hits }).
 * Parts: `input`, `results`, `result`, `icon`, `title`, `integration`, `access`, `cost`.
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
      this.#results.hidden = !this.#hits.length;
      this.#focusResult(0);
    }
  }

  /** Searches now and shows the hits. */
  async search(query: string): Promise<readonly StepHit[]> {
    this.#inflight?.abort();
    const controller = new AbortController();
    this.#inflight = controller;
    const limit = this.getAttribute('limit') ?? '20';
    if (query.trim()) this.#searching(query);
    const answer = await this.attempt(() =>
      this.requireClient().get<SearchResponse>(
        pathOf('searchSteps'),
        { q: query.trim(), limit },
        controller.signal,
      ),
    );
    this.#results.removeAttribute('aria-busy');
    if (!answer || controller.signal.aborted) {
      if (!controller.signal.aborted) this.#results.hidden = true;
      return this.#hits;
    }
    this.#hits = answer.hits;
    this.#show(query);
    this.emit('toolsteps-change', { query, hits: this.#hits });
    return this.#hits;
  }

  /** While the API answers: the list says so (the old hits stay until the new ones come). */
  #searching(query: string): void {
    this.say(`Searching for “${query.trim()}”…`);
    this.#results.setAttribute('aria-busy', 'true');
    if (!this.#hits.length || this.#results.hidden) {
      render(this.#results, h('li', { className: 'hint loading' }, 'Searching…'));
      this.#results.hidden = false;
    }
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
    const icon = integrationIcon(hit.integration);
    const details = h(
      'span',
      { id: detailsId, className: 'hint details' },
      h('span', { part: 'integration' }, hit.integrationTitle),
      ' · ',
      h('span', { part: 'access', className: `badge ${hit.access}` }, ACCESS_WORDS[hit.access]),
      ' · ',
      h('span', { part: 'cost' }, hit.cost ? `paid: ${hit.cost}` : 'free'),
    );
    return h('li', { 'data-step': hit.id, className: 'hit' }, icon, h('span', null, button, ' ', details));
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
    // The list closes: the chosen step's form, below it, is what the person works on next.
    this.#results.hidden = true;
    this.#input.focus();
    this.emit('toolsteps-select', { step: hit });
  }

  protected override styles(): string {
    return `
      .list { margin-top: var(--_gap); }
      button.result { border: 0; background: none; padding: 2px 0; font-weight: 600; text-align: left; }
      button.result:hover { text-decoration: underline; }
      li[aria-current] { outline: 2px solid var(--_accent); }
      li.hit { display: flex; gap: var(--_gap); align-items: center; }
      .icon { flex: none; }
    `;
  }
}

import { InputError } from '../errors/index.js';
import { RecentAnswers } from '../values/recent-answers.js';
import { closestIds } from '../values/unknown-field-suggestion.js';
import { SearchIndex } from './search-index.js';
import type { Searchable, SearchableIntegration } from './search-ranking.js';

/** Distinct searches whose answers a shelf keeps until it changes. */
const REMEMBERED_SEARCHES = 256;
/** Longer queries are ranked afresh each time: a search bar's words are short, and a kept answer is keyed by them. */
const REMEMBERED_QUERY_LENGTH = 200;

/** What the registry shelves: steps (which may keep former ids as aliases) and triggers. */
interface Shelved extends Searchable {
  readonly id: string;
  readonly aliases?: readonly string[] | undefined;
  readonly integration: { readonly id: string };
}

/**
 * One kind of item of the registry (its steps, or its triggers): by id and
 * former id, in registration order, searched through an index built on the
 * first search after a change. The registry holds two, so steps and
 * triggers are found, listed, refused and suggested the same way.
 */
export class CatalogShelf<Item extends Shelved> {
  private readonly items = new Map<string, Item>();
  /** A former id to the id it now resolves to. */
  private readonly aliases = new Map<string, string>();
  private index: SearchIndex<Item> | undefined;
  /**
   * The last searches' answers: a search bar sends the same few words
   * again and again (each keystroke's prefix, from every builder), and an
   * answer holds until an item is added, which drops them with the index.
   */
  private recent = new RecentAnswers<readonly { item: Item; score: number }[]>(REMEMBERED_SEARCHES);

  constructor(
    private readonly noun: 'step' | 'trigger',
    private readonly integrationOf: (item: Item) => SearchableIntegration,
  ) {}

  /**
   * Adds an item once `check` (the registry's check of its integration) has
   * passed; throws when its id or one of its aliases is taken, before asking.
   */
  add(item: Item, check: () => void): void {
    for (const id of [item.id, ...(item.aliases ?? [])]) {
      if (this.items.has(id) || this.aliases.has(id)) {
        throw new Error(`${this.noun === 'step' ? 'Step' : 'Trigger'} "${id}" is already registered.`);
      }
    }
    check();
    this.items.set(item.id, item);
    for (const alias of item.aliases ?? []) this.aliases.set(alias, item.id);
    this.index = undefined;
    this.recent = new RecentAnswers(REMEMBERED_SEARCHES);
  }

  /** The item with this id or former id, or undefined. */
  get(id: string): Item | undefined {
    return this.items.get(this.aliases.get(id) ?? id);
  }

  /**
   * The item, or an InputError that suggests the ids a typo is closest to
   * first, then what a search for the id's words finds.
   */
  require(id: string): Item {
    const found = this.get(id);
    if (found) return found;
    const close = closestIds(id, [...this.items.keys()]);
    const searched = this.search(id.replace(/[._]/g, ' '), 3).map((hit) => hit.item.id);
    const suggestions = [...new Set([...close, ...searched])].slice(0, 3);
    const noun = this.noun;
    throw new InputError(
      `Unknown ${noun} "${id}".${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
      [{ path: noun, message: `unknown ${noun} id` }],
    );
  }

  /** Every item, or one integration's, in registration order; aliases are not listed twice. */
  list(integrationId?: string): Item[] {
    const all = [...this.items.values()];
    return integrationId ? all.filter((item) => item.integration.id === integrationId) : all;
  }

  /** The items for `query`, best first, with their scores. */
  search(query: string, limit: number): { item: Item; score: number }[] {
    if (query.length > REMEMBERED_QUERY_LENGTH) return this.ranked(query, limit);
    // A copy: the kept list is never handed out to be changed.
    return this.recent.get(`${limit} ${query}`, () => this.ranked(query, limit)).slice();
  }

  private ranked(query: string, limit: number): { item: Item; score: number }[] {
    this.index ??= new SearchIndex([...this.items.values()], this.integrationOf);
    return this.index.rank(query, limit);
  }
}

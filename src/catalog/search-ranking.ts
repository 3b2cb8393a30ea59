import type { Integration } from '../model/define-integration.js';
import type { AnyStep } from '../step/define-step.js';

/** What search reads of a step or a trigger; any id, since trigger ids are plain strings. */
export type Searchable = Pick<AnyStep, 'title' | 'keywords' | 'description' | 'agentDescription'> & {
  id: string;
};

/** What search reads of an integration: the registry's, or the manifest's entry for it. */
export type SearchableIntegration = Pick<Integration, 'id' | 'title' | 'keywords'>;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(canonical);
}

/**
 * How strongly each place a query word appears counts, most telling first:
 * the provider's name (the integration's id and title), the step's title and
 * id, its keywords, then the integration's generic keywords, which every step
 * of it shares and so tell its steps apart least, and the descriptions.
 */
const WEIGHTS = { provider: 8, title: 6, id: 5, keyword: 4, integration: 2, description: 1 } as const;

/** Words a query uses for the same thing, compared as one (person and people). */
const SAME_WORD: Readonly<Record<string, string>> = { people: 'person', persons: 'person', person: 'person' };

const canonical = (word: string) => SAME_WORD[word] ?? word;

/** The words of each place search looks, with the weight a match there earns. */
export type SearchFields = readonly (readonly [weight: number, tokens: readonly string[]])[];

/** Where a step's (or trigger's) words are, by weight: see WEIGHTS. */
export function searchFields(step: Searchable, integration: SearchableIntegration): SearchFields {
  return [
    [WEIGHTS.provider, words(`${integration.id} ${integration.title}`)],
    [WEIGHTS.title, words(step.title)],
    [WEIGHTS.id, words(step.id.slice(step.id.indexOf('.') + 1))],
    [WEIGHTS.keyword, words(step.keywords.join(' '))],
    [WEIGHTS.integration, words(integration.keywords.join(' '))],
    [WEIGHTS.description, words(`${step.description} ${step.agentDescription}`)],
  ];
}

/** The query's words as search compares them. */
export const queryTerms = words;

/** A term's plural-less form: `tickets` and `ticket` are one word to search. */
export const stemOf = (term: string) => (term.length > 3 ? term.replace(/s$/, '') : term);

/** True when `token` is `term` as search compares words: equal, or equal without a plural `s`. */
export const sameWord = (token: string, term: string, stem: string) =>
  token === term || token === stem || token.replace(/s$/, '') === stem;

/** Prefixes count from three letters: `tic` finds ticket, `ti` finds nothing. */
export const MIN_PREFIX = 3;

/**
 * The total of a query: each term's best weight, summed; a step that matches
 * every term gets a bonus, one that matches some is scaled by how many.
 */
export function combineTermScores(bests: readonly number[]): number {
  const matched = bests.filter((best) => best > 0).length;
  if (matched === 0) return 0;
  const score = bests.reduce((sum, best) => sum + best, 0);
  return matched === bests.length ? score * 1.5 : score * (matched / bests.length);
}

/**
 * Scores a step for a query: each query word earns the weight of the best
 * place it appears (whole word beats prefix), and a step that matches every
 * word gets a bonus, so "create ticket" puts Create Ticket above List Tickets.
 */
export function scoreStep(step: Searchable, integration: SearchableIntegration, query: string): number {
  const terms = words(query);
  if (!terms.length) return 0;
  const fields = searchFields(step, integration);
  const bests = terms.map((term) => {
    const stem = stemOf(term);
    let best = 0;
    for (const [weight, tokens] of fields) {
      const exact = tokens.some((token) => sameWord(token, term, stem));
      const prefix = !exact && term.length >= MIN_PREFIX && tokens.some((token) => token.startsWith(term));
      best = Math.max(best, exact ? weight : prefix ? weight / 2 : 0);
    }
    return best;
  });
  return combineTermScores(bests);
}

/**
 * Hits below this share of the best hit's score are left out: with a step
 * that the words name ("create ticket": Create Ticket, both words in its
 * title), a step that only shares the provider's name or one word of a
 * description is noise a person has to read past, not a result.
 */
export const RELEVANCE_FLOOR = 0.5;

/** The hits (best first) that score at least RELEVANCE_FLOOR of the best one. */
export function aboveFloor<Hit extends { score: number }>(hits: Hit[]): Hit[] {
  const best = hits[0]?.score ?? 0;
  return hits.filter((hit) => hit.score >= best * RELEVANCE_FLOOR);
}

/** Characters of step and trigger ids, whose order localeCompare gives without its collator. */
const ID_CHARACTERS = /^[a-z0-9_.]*$/;

/** `_` and `.` as the collator orders them, before digits and letters (`a_b` < `a.b` < `a0b` < `aab`). */
const collationKey = (id: string) => id.replaceAll('_', '\u0001').replaceAll('.', '\u0002');

/**
 * `a.localeCompare(b)` for ids: the same order, but ids of lower-case
 * letters, digits, `_` and `.` (every step and trigger id) are compared
 * without ICU's collator, whose first use is a large part of a cold
 * `search` (docs/benchmarks.md, "Figures behind the code").
 */
export function compareIds(a: string, b: string): number {
  if (!ID_CHARACTERS.test(a) || !ID_CHARACTERS.test(b)) return a.localeCompare(b);
  const [left, right] = [collationKey(a), collationKey(b)];
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The order of two hits that scored alike: the shorter title first, then by
 * id. With the same words matched, a title that says less besides them is
 * the closer match ("delete ticket": Delete Ticket before Delete Suspended
 * Ticket, which id order put first).
 */
export function compareTies(a: Searchable, b: Searchable): number {
  return titleLength(a) - titleLength(b) || compareIds(a.id, b.id);
}

/** How many words a title has, as search splits it: `compareTies`'s first key. */
export const titleLength = (item: Searchable) => words(item.title).length;

/**
 * The items that match the query well enough (see RELEVANCE_FLOOR), best
 * first (ties by `compareTies`), at most `limit`:
 * the one ranking behind the registry's step and trigger search and the
 * CLI's search over the manifest.
 */
export function rankItems<Item extends Searchable>(
  items: Iterable<Item>,
  integrationOf: (item: Item) => SearchableIntegration,
  query: string,
  limit: number,
): { item: Item; score: number }[] {
  const hits: { item: Item; score: number }[] = [];
  for (const item of items) {
    const score = scoreStep(item, integrationOf(item), query);
    if (score > 0) hits.push({ item, score });
  }
  hits.sort((a, b) => b.score - a.score || compareTies(a.item, b.item));
  return aboveFloor(hits.slice(0, limit));
}

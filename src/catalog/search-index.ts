import {
  aboveFloor,
  compareIds,
  MIN_PREFIX,
  queryTerms,
  type Searchable,
  type SearchableIntegration,
  searchFields,
  stemOf,
  titleLength,
} from './search-ranking.js';

/**
 * The registry's search over many steps: the same scores as `scoreStep`
 * (search-ranking.ts), found through an inverted index instead of by
 * scoring every step. A scan tokenizes every step's six fields for every
 * query: fine for the CLI's one cold search over the manifest, tens of
 * milliseconds a query for a catalogue of thousands. Here a query costs what
 * its words match: postings of whole words, and of every word a prefix
 * starts, found by binary search in the sorted vocabulary.
 */
export class SearchIndex<Item extends Searchable> {
  /**
   * Each word to the items it appears in, with the best weight of a place it
   * appears there: two flat arrays per word, read by index, because walking
   * a Map's entries allocates a pair per entry and a common word of a large
   * catalogue has thousands.
   */
  private readonly postings = new Map<string, Posting>();
  /** Each plural-less form to the words that have it (`ticket` -> ticket, tickets). */
  private readonly byStem = new Map<string, string[]>();
  /** Every word, sorted, for prefix ranges. */
  private readonly vocabulary: string[];
  /** Each item's place in tie order (`compareTies`): ties are broken by it, with no string compared per query. */
  private readonly tieOrder: Uint32Array;
  private buffers:
    | {
        sums: Float64Array;
        matched: Uint32Array;
        termBest: Float64Array;
        touched: Uint32Array;
        reached: Uint32Array;
      }
    | undefined;

  constructor(
    private readonly items: readonly Item[],
    integrationOf: (item: Item) => SearchableIntegration,
  ) {
    const building = new Map<string, Map<number, number>>();
    items.forEach((item, index) => {
      for (const [weight, tokens] of searchFields(item, integrationOf(item))) {
        for (const token of tokens) post(building, token, index, weight);
      }
    });
    for (const [token, byItem] of building) {
      this.postings.set(token, {
        items: Uint32Array.from(byItem.keys()),
        weights: Float64Array.from(byItem.values()),
      });
    }
    this.vocabulary = [...this.postings.keys()].sort();
    this.tieOrder = new Uint32Array(items.length);
    // compareTies's order, with each title split once rather than at every comparison.
    const lengths = items.map(titleLength);
    const tied = items
      .map((_, index) => index)
      .sort((a, b) => lengths[a]! - lengths[b]! || compareIds(items[a]!.id, items[b]!.id));
    tied.forEach((index, place) => {
      this.tieOrder[index] = place;
    });
    for (const token of this.vocabulary) {
      const stem = token.replace(/s$/, '');
      const same = this.byStem.get(stem);
      if (same) same.push(token);
      else this.byStem.set(stem, [token]);
    }
  }

  /** The items that match the query, best first (ties by `compareTies`), at most `limit`: `rankItems`'s answer. */
  rank(query: string, limit: number): { item: Item; score: number }[] {
    const terms = queryTerms(query);
    if (!terms.length || limit <= 0) return [];
    const { sums, matched, termBest, touched, reached } = this.scratch();
    let touchedCount = 0;
    for (const term of terms) {
      const reachedCount = this.bestWeights(term, termBest, reached);
      for (let at = 0; at < reachedCount; at += 1) {
        const index = reached[at] as number;
        if (matched[index] === 0) touched[touchedCount++] = index;
        sums[index] = (sums[index] as number) + (termBest[index] as number);
        matched[index] = (matched[index] as number) + 1;
        termBest[index] = 0;
      }
    }
    const top = new TopHits(limit, this.tieOrder);
    for (let at = 0; at < touchedCount; at += 1) {
      const index = touched[at] as number;
      top.offer(index, finalScore(sums[index] as number, matched[index] as number, terms.length));
      sums[index] = 0;
      matched[index] = 0;
    }
    return aboveFloor(top.best().map(({ index, score }) => ({ item: this.items[index] as Item, score })));
  }

  /** Buffers one query fills and leaves zeroed: `rank` runs to its end before another can start. */
  private scratch() {
    const size = this.items.length;
    // Lists of item indexes too, filled from the start each query: a broad query reaches thousands
    // of items, and arrays made per query were garbage the collector stopped searches to sweep.
    this.buffers ??= {
      sums: new Float64Array(size),
      matched: new Uint32Array(size),
      termBest: new Float64Array(size),
      touched: new Uint32Array(size),
      reached: new Uint32Array(size),
    };
    return this.buffers;
  }

  /**
   * One term's best weight in each item it matches, written into `bests`
   * (zero elsewhere); the items reached go into `reached`, and their count is the answer. A whole word (the term, its
   * stem, or a word whose plural-less form is the stem) earns its weight, a
   * word the term starts earns half. Where a place has both, the whole
   * word's weight is the larger, so taking the maximum is `scoreStep`'s rule.
   */
  private bestWeights(term: string, bests: Float64Array, reached: Uint32Array): number {
    const stem = stemOf(term);
    let count = 0;
    const raise = (token: string, factor: number) => {
      const posting = this.postings.get(token);
      if (!posting) return;
      const { items, weights } = posting;
      for (let at = 0; at < items.length; at += 1) {
        const index = items[at] as number;
        const weight = (weights[at] as number) * factor;
        const current = bests[index] as number;
        if (current === 0) reached[count++] = index;
        if (current < weight) bests[index] = weight;
      }
    };
    for (const token of new Set([term, stem, ...(this.byStem.get(stem) ?? [])])) raise(token, 1);
    if (term.length >= MIN_PREFIX) {
      for (let at = lowerBound(this.vocabulary, term); this.vocabulary[at]?.startsWith(term); at += 1) {
        raise(this.vocabulary[at] as string, 0.5);
      }
    }
    return count;
  }
}

/** The items a word appears in, and the best weight it has in each, at the same positions. */
interface Posting {
  items: Uint32Array;
  weights: Float64Array;
}

/** Records a word of an item at a weight, keeping the item's best. */
function post(
  postings: Map<string, Map<number, number>>,
  token: string,
  index: number,
  weight: number,
): void {
  const items = postings.get(token) ?? new Map<number, number>();
  postings.set(token, items);
  if ((items.get(index) ?? 0) < weight) items.set(index, weight);
}

/** `combineTermScores` from a sum of the terms' bests and how many matched. */
function finalScore(sum: number, matched: number, terms: number): number {
  return matched === terms ? sum * 1.5 : sum * (matched / terms);
}

/** The best `limit` hits offered, by score then tie order (`compareTies`), kept sorted as they come. */
class TopHits {
  private readonly hits: { index: number; score: number }[] = [];

  constructor(
    private readonly limit: number,
    private readonly tieOrder: Uint32Array,
  ) {}

  offer(index: number, score: number): void {
    if (score <= 0) return;
    const hits = this.hits;
    if (hits.length === this.limit && !this.before(index, score, hits[hits.length - 1]!)) return;
    let at = hits.length;
    while (at > 0 && this.before(index, score, hits[at - 1]!)) at -= 1;
    hits.splice(at, 0, { index, score });
    if (hits.length > this.limit) hits.pop();
  }

  best(): readonly { index: number; score: number }[] {
    return this.hits;
  }

  private before(index: number, score: number, other: { index: number; score: number }): boolean {
    return (
      score > other.score || (score === other.score && this.tieOrder[index]! < this.tieOrder[other.index]!)
    );
  }
}

/** The first position in sorted `words` whose word is not before `word`. */
function lowerBound(words: readonly string[], word: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((words[middle] as string) < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

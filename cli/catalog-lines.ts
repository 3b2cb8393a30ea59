import { Catalog, type CatalogStep } from './catalog.js';
import { printSearchHits } from './print-search-hits.js';

/** One step as `list` and `search` print it: id, title, and what kind of call it is. */
export function stepLine(step: CatalogStep): string {
  const flags = [step.access, step.idempotent ? 'idempotent' : null, step.credits ? 'paid' : null].filter(
    Boolean,
  );
  return `${step.id.padEnd(36)} ${step.title}  [${flags.join(', ')}]`;
}

/** What `search <words...>` prints: the ranked steps, as lines or (with --json) as JSON. */
export function printSearchResults(query: string, json: boolean): void {
  const hits = Catalog.read().search(query);
  printSearchHits(
    json,
    'step',
    hits.map((hit) => ({ item: hit.step, score: hit.score })),
    stepLine,
  );
}

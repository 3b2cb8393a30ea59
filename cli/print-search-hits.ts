import { printJson } from './output.js';

/**
 * What `search` and `triggers search` print for their hits: id, title and
 * score with `json` (--json), else one line a hit (or that none matched).
 */
export function printSearchHits<Item extends { id: string; title: string }>(
  json: boolean,
  noun: 'step' | 'trigger',
  hits: readonly { item: Item; score: number }[],
  line: (item: Item) => string,
): void {
  if (json) {
    printJson(
      hits.map(({ item, score }) => ({ id: item.id, title: item.title, score: Number(score.toFixed(2)) })),
    );
    return;
  }
  if (!hits.length) process.stdout.write(`No ${noun} matches.\n`);
  for (const { item } of hits) process.stdout.write(`${line(item)}\n`);
}

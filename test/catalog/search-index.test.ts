import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/catalog/search-index.js';
import { rankItems } from '../../src/catalog/search-ranking.js';
import { createRegistry } from '../../steps/index.js';

const registry = createRegistry();
const integrationOf = (item: { integration: { id: string } }) => registry.integration(item.integration.id)!;

/** Queries of every shape: whole words, plurals, prefixes, short words, misses, noise. */
const QUERIES = [
  'zendesk',
  'create ticket',
  'tickets',
  'tic',
  'ti',
  'enrich people',
  'person',
  'deploy cancel',
  'deployments list',
  'api call',
  'invite user role',
  'company abn',
  'nothing-at-all',
  '',
  '  !!  ',
  'Create TICKET in Zendesk please',
  'ss',
  'status changed',
];

describe("the search index gives the scan's answer", () => {
  const kinds = { steps: registry.listSteps(), triggers: registry.listTriggers() };
  it.each(Object.keys(kinds).flatMap((kind) => QUERIES.map((query) => [kind, query])))(
    '%s, %j',
    (kind, query) => {
      const items = kinds[kind as keyof typeof kinds];
      const scanned = rankItems<(typeof items)[number]>(items, integrationOf, query, 50);
      const indexed = new SearchIndex<(typeof items)[number]>(items, integrationOf).rank(query, 50);
      expect(indexed.map(({ item, score }) => [item.id, score])).toEqual(
        scanned.map(({ item, score }) => [item.id, score]),
      );
    },
  );

  it('the registry searches through it', () => {
    expect(registry.search('create ticket', 1)[0]?.step.id).toBe('ticketing.create_ticket');
  });

  it('on 1,000 generated items and 150 random queries of words, plurals and prefixes', () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const vocabulary = [
      'ticket',
      'tickets',
      'invoice',
      'customer',
      'contacts',
      'deal',
      'order',
      'press',
      'ss',
      'user',
    ];
    const pick = (count: number) =>
      Array.from({ length: count }, () => vocabulary[random(vocabulary.length)]).join(' ');
    const integrations = Array.from({ length: 40 }, (_, index) => ({
      id: `int_${index}`,
      title: `Provider ${pick(1)}`,
      keywords: [pick(1)],
    }));
    const items = Array.from({ length: 1000 }, (_, index) => ({
      id: `int_${index % 40}.${pick(1)}_${index}`,
      integration: integrations[index % 40] as (typeof integrations)[number],
      title: pick(2),
      keywords: [pick(1), pick(1)],
      description: pick(5),
      agentDescription: pick(4),
    }));
    const ofItem = (item: (typeof items)[number]) => item.integration;
    const index = new SearchIndex(items, ofItem);
    for (let query = 0; query < 150; query += 1) {
      const words = pick(1 + random(3))
        .split(' ')
        .map((word) => (random(3) === 0 ? word.slice(0, 2 + random(4)) : word));
      const text = words.join(' ');
      const scanned = rankItems(items, ofItem, text, 30).map(({ item, score }) => [item.id, score]);
      expect(
        index.rank(text, 30).map(({ item, score }) => [item.id, score]),
        text,
      ).toEqual(scanned);
    }
  });
});

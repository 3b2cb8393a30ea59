import { describe, expect, it } from 'vitest';
import { joinUrl } from '../../src/model/base-url.js';

/** What joinUrl made before it serialized the query itself: the URL, then searchParams.set per value. */
function setOneByOne(
  base: string,
  endpoint: string,
  query: Record<string, string | number | undefined>,
): string {
  const url = new URL(base.replace(/\/+$/, '') + endpoint);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.href;
}

describe('joinUrl', () => {
  it('writes a query exactly as searchParams.set would, odd characters and all', () => {
    const cases: [string, string, Record<string, string | number | undefined>][] = [
      ['https://acme.example/api/v2/', '/tickets/1.json', { include: 'users' }],
      [
        'https://acme.example/api/v2',
        '/tickets.json',
        { q: 'a b&c=d', 'x y': 'é/?#', n: 5, gone: undefined },
      ],
      ['https://acme.example', '/search', { query: '+%20%', empty: '' }],
      ['https://acme.example', '/plain', {}],
      ['https://acme.example', '/plain', { only: undefined }],
      ['https://acme.example', '/already?page=2&sort=asc', { page: 3, extra: 'x' }],
    ];
    for (const [base, endpoint, query] of cases) {
      expect(joinUrl(base, endpoint, query).href, `${endpoint} ${JSON.stringify(query)}`).toBe(
        setOneByOne(base, endpoint, query),
      );
    }
  });
});

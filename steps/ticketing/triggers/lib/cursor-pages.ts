import type { HttpClient } from '../../../../src/kit/index.js';

/** The paging part of a cursor-paged answer of the webhooks API. */
interface PageMeta {
  meta?: { has_more?: boolean | null; after_cursor?: string | null } | null;
}

/**
 * Every page of a list of the provider's webhooks API (`page[size]` 100,
 * `page[after]` the last answer's cursor), each parsed by `parse`, at most
 * 50 pages: the webhook and rule lists are read this way to find ours.
 */
export async function* cursorPages<Page extends PageMeta>(
  http: HttpClient,
  path: string,
  parse: (body: unknown) => Page,
): AsyncGenerator<Page> {
  let after: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const answer = await http.request({
      method: 'GET',
      path,
      query: { 'page[size]': 100, 'page[after]': after },
    });
    const parsed = parse(answer.body);
    yield parsed;
    if (!parsed.meta?.has_more || !parsed.meta.after_cursor) return;
    after = parsed.meta.after_cursor;
  }
}

import * as z from 'zod';

/** What a page's `next_cursor` says when the next page needs nothing more than it. */
const NEXT_PAGE_CURSOR = 'Pass as cursor to get the next page; null on the last page.';

/**
 * The output of a step that lists one page at a time: the page's items under
 * `key`, whether another page exists, and the cursor that fetches it. Every
 * paged list step answers in this shape, so an agent pages them all alike.
 */
export function cursorPageOutput<Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  /** The items' description, and the cursor's when the next page needs more than the cursor. */
  words: { items: string; cursor?: string },
) {
  // A computed key is typed as any string; the cast names the one field it is.
  const items = { [key]: z.array(item).describe(words.items) } as Record<Key, z.ZodArray<Item>>;
  return z.object({
    ...items,
    has_more: z.boolean().describe('Whether another page exists.'),
    next_cursor: z
      .string()
      .nullable()
      .describe(words.cursor ?? NEXT_PAGE_CURSOR),
  });
}

import * as z from 'zod';
import { builtOnce, definedOnly } from '../../../src/kit/index.js';
import { readAnswer } from './provider-answer.js';

/**
 * The provider's list answers page by time: `{<key>: [...], pagination:
 * {count, next, prev}}`, where `next` (a ms timestamp) fetches the next page,
 * older items. Our cursor is that `next`, as digits.
 */
export const TimeCursor = builtOnce(() =>
  z
    .string()
    .regex(/^\d{1,16}$/, 'a next_cursor value from a previous page')
    .describe('next_cursor from the previous page; keep the other inputs the same.'),
);

/** The paging input every time-paged list step takes: 1 to 100 items a page (the provider's most), 20 by default. */
export const TimePaging = builtOnce(() => ({
  limit: z.number().int().min(1).max(100).default(20).describe('Items per page, 1 to 100.'),
  cursor: TimeCursor().optional(),
}));

/** One page's items in our shape, whether more exist, and the cursor for them. */
export function readTimePage<Item>(
  body: unknown,
  key: string,
  what: string,
  toItem: (raw: unknown, where: string) => Item,
): { items: Item[]; has_more: boolean; next_cursor: string | null } {
  const schema = z.object({
    [key]: z.array(z.unknown()),
    pagination: z.object({ next: z.number().nullable().optional() }).loose().nullable().optional(),
  });
  const page = readAnswer(schema, body, 'answer', what) as Record<string, unknown[]> & {
    pagination?: { next?: number | null } | null;
  };
  const next = page.pagination?.next ?? null;
  return {
    items: (page[key] ?? []).map((raw, index) => toItem(raw, `${key}.${index}`)),
    has_more: next !== null,
    next_cursor: next === null ? null : String(next),
  };
}

/**
 * One page of a field's choices: the items under `key` read through `item`,
 * and the next cursor only when there is a next page, as an options page
 * says it.
 */
export function readTimeChoices<Item extends z.ZodType>(
  body: unknown,
  key: string,
  item: Item,
): { items: z.output<Item>[]; next_cursor?: string } {
  const page = readTimePage(body, key, `a list of ${key}`, (raw, where) =>
    readAnswer(item, raw, where, `an entry of the ${key} list`),
  );
  return definedOnly({ items: page.items, next_cursor: page.next_cursor ?? undefined });
}

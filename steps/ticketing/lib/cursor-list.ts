import * as z from 'zod';
import { builtOnce, cursorPageOutput, type HttpClient, readAnswer } from '../../../src/kit/index.js';

/** The paging input every cursor-paged list step takes. */
export const CursorPaging = builtOnce(() => ({
  limit: z.number().int().min(1).max(100).default(25).describe('Records per page, 1 to 100.'),
  cursor: z.string().min(1).max(2000).optional().describe('next_cursor from the previous page.'),
}));

/** The output of a cursor-paged list of `member`, in the words every such list uses. */
export function pagedOutput<Key extends string, Item extends z.ZodType>(
  member: Key,
  item: Item,
  what: string,
) {
  return cursorPageOutput(member, item, { items: `This page of ${what}.` });
}

const Meta = builtOnce(() =>
  z.object({ has_more: z.boolean(), after_cursor: z.string().nullable().optional() }),
);

export interface CursorPageRead<Item> {
  items: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * One page of a cursor-paged list (`page[size]`, at most 100, and
 * `page[after]`), its records read through `item` under `member`. The
 * provider's own `after_cursor` is handed back as the next cursor.
 */
export async function readCursorPage<Item extends z.ZodType>(
  http: HttpClient,
  request: {
    path: string;
    member: string;
    item: Item;
    limit: number;
    cursor?: string | undefined;
    query?: Record<string, string | number | undefined>;
  },
): Promise<CursorPageRead<z.output<Item>>> {
  const response = await http.request({
    method: 'GET',
    path: request.path,
    // An undefined query value is not sent.
    query: { ...request.query, 'page[size]': request.limit, 'page[after]': request.cursor },
  });
  const page = readAnswer(
    z.object({ [request.member]: z.array(request.item), meta: Meta() }),
    response.body,
    `GET ${request.path}`,
  ) as { meta: z.infer<ReturnType<typeof Meta>> } & Record<string, z.output<Item>[]>;
  const hasMore = page.meta.has_more && Boolean(page.meta.after_cursor);
  return {
    items: page[request.member] ?? [],
    has_more: hasMore,
    next_cursor: hasMore ? (page.meta.after_cursor ?? null) : null,
  };
}

/**
 * A list step's whole answer: one page of `member` (read as `readCursorPage`
 * reads it) under the member's own name, with has_more and next_cursor.
 */
export async function listCursorPage<Member extends string, Item extends z.ZodType>(
  http: HttpClient,
  list: { path: string; member: Member; item: Item; query?: Record<string, string | number | undefined> },
  paging: { limit: number; cursor?: string | undefined },
): Promise<Record<Member, z.output<Item>[]> & Omit<CursorPageRead<unknown>, 'items'>> {
  const page = await readCursorPage(http, { ...list, limit: paging.limit, cursor: paging.cursor });
  const items = { [list.member]: page.items } as Record<Member, z.output<Item>[]>;
  return { ...items, has_more: page.has_more, next_cursor: page.next_cursor };
}

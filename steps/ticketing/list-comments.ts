import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CommentVisibility, CommentWithFiles } from './lib/comment-schema.js';
import { type CursorPageRead, CursorPaging, readCursorPage } from './lib/cursor-list.js';
import { ticketingPath } from './lib/paths.js';
import { TicketId } from './lib/ticket-schema.js';
import { ticketOptions } from './lib/ticketing-options.js';

/**
 * The provider cannot filter comments by visibility, so a filtered list reads
 * on while a page holds none of the kind asked for, up to this many pages per
 * call (then it answers an empty page with a cursor rather than read on unbounded).
 */
const MAX_PAGES_PER_CALL = 5;

export default defineStep({
  id: 'ticketing.list_comments',
  integration: ticketing,
  title: 'List Comments',
  description:
    "List a ticket's comments one page at a time: public replies, internal notes or both, oldest or newest first.",
  agentDescription:
    'Lists the conversation of one ticket a page at a time with each comment\'s files. visibility "public" gives only replies the requester saw, "internal" only agent notes; omit it for both. newest_first reads from the latest comment back. With a visibility filter a page may hold fewer than limit comments: has_more and next_cursor still say whether to read on. Read-only and safe to retry.',
  keywords: ['comments', 'conversation', 'replies', 'notes', 'internal notes', 'history', 'thread'],
  get input() {
    return z.strictObject({
      ticket_id: TicketId(),
      visibility: CommentVisibility()
        .optional()
        .describe('Only public replies, or only internal notes; both when omitted.'),
      newest_first: z.boolean().default(false).describe('Newest comment first instead of oldest first.'),
      ...CursorPaging(),
    });
  },
  get output() {
    return cursorPageOutput('comments', CommentWithFiles(), {
      items: 'This page of comments, in the order asked for.',
      cursor:
        'Pass as cursor (with the same ticket, visibility and order) for the next page; null on the last page.',
    });
  },
  access: 'read',
  idempotent: true,
  options: { ticket_id: ticketOptions },
  variables: { comment_ids: '$.comments[*].id', bodies: '$.comments[*].body', next_cursor: '$.next_cursor' },
  examples: [
    {
      title: 'The public replies of ticket 1, newest first',
      input: { ticket_id: 1, visibility: 'public', newest_first: true },
    },
  ],
  async run(input, { http }) {
    const wanted = input.visibility === undefined ? undefined : input.visibility === 'public';
    let cursor = input.cursor;
    let page: CursorPageRead<z.output<ReturnType<typeof CommentWithFiles>>> | undefined;
    let comments: z.output<ReturnType<typeof CommentWithFiles>>[] = [];
    for (let read = 0; read < MAX_PAGES_PER_CALL && comments.length === 0; read += 1) {
      page = await readCursorPage(http, {
        path: ticketingPath('ticketComments', input.ticket_id),
        member: 'comments',
        item: CommentWithFiles(),
        limit: input.limit,
        cursor,
        // The description: with cursor paging, `sort` is created_at or -created_at.
        query: { sort: input.newest_first ? '-created_at' : undefined },
      });
      comments = page.items.filter((comment) => wanted === undefined || comment.public === wanted);
      if (!page.has_more || wanted === undefined) break;
      cursor = page.next_cursor ?? undefined;
    }
    return { comments, has_more: page?.has_more ?? false, next_cursor: page?.next_cursor ?? null };
  },
});

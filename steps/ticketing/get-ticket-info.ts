import * as z from 'zod';
import { builtOnce, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { Comment, Ticket, TicketId, UserSummary } from './lib/ticket-schema.js';
import { ticketOptions } from './lib/ticketing-options.js';

const MAX_COMMENT_PAGES = 50;

const TicketWithUsers = builtOnce(() =>
  z.object({ ticket: Ticket(), users: z.array(UserSummary()).default([]) }),
);
const CommentPage = builtOnce(() =>
  z.object({
    comments: z.array(Comment().loose()),
    users: z.array(UserSummary()).default([]),
    meta: z.object({ has_more: z.boolean(), after_cursor: z.string().nullable().optional() }).optional(),
  }),
);

export default defineStep({
  id: 'ticketing.get_ticket_info',
  integration: ticketing,
  title: 'Get Ticket Info',
  description: 'Read one ticket: status, priority, assignee, requester and every comment.',
  agentDescription:
    'Reads a ticket by id with its whole conversation (public comments and internal notes, oldest first). Read-only and safe to retry. Use Search Tickets or List Tickets to find an id.',
  keywords: ['read ticket', 'show ticket', 'ticket details', 'comments', 'conversation', 'get'],
  get input() {
    return z.strictObject({ ticket_id: TicketId() });
  },
  options: { ticket_id: ticketOptions },
  get output() {
    return z.object({
      ticket: Ticket(),
      requester: UserSummary().nullable().describe('Who asked, or null if unknown.'),
      assignee: UserSummary().nullable().describe('Assigned agent, or null when unassigned.'),
      comments: z
        .array(
          Comment().extend({
            author_name: z.string().nullable().describe('Name of the author, when known.'),
          }),
        )
        .describe('Every comment, oldest first (up to 5,000; see comments_truncated).'),
      comments_truncated: z
        .boolean()
        .describe('True when the ticket has more than 5,000 comments and only the first 5,000 are here.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: {
    ticket_id: '$.ticket.id',
    status: '$.ticket.status',
    priority: '$.ticket.priority',
    assignee_email: '$.assignee.email',
    requester_email: '$.requester.email',
    comments: '$.comments[*].body',
  },
  examples: [{ title: 'Read ticket 1 with its comments', input: { ticket_id: 1 } }],
  async run(input, { http }) {
    const shown = await http.request({
      method: 'GET',
      path: ticketingPath('ticket', input.ticket_id),
      query: { include: 'users' },
    });
    const { ticket, users } = TicketWithUsers().parse(shown.body);
    const people = new Map(users.map((user) => [user.id, user]));
    const comments: z.infer<ReturnType<typeof Comment>>[] = [];
    let after: string | undefined;
    let truncated = false;
    for (let page = 0; page < MAX_COMMENT_PAGES; page += 1) {
      const response = await http.request({
        method: 'GET',
        path: ticketingPath('ticketComments', input.ticket_id),
        // An undefined query value is not sent.
        query: { 'page[size]': 100, include: 'users', 'page[after]': after },
      });
      const batch = CommentPage().parse(response.body);
      comments.push(...batch.comments);
      for (const user of batch.users) people.set(user.id, user);
      if (!batch.meta?.has_more || !batch.meta.after_cursor) break;
      after = batch.meta.after_cursor;
      truncated = page === MAX_COMMENT_PAGES - 1;
    }
    const person = (id: number | null | undefined) => (id ? (people.get(id) ?? { id }) : null);
    return {
      ticket,
      requester: person(ticket.requester_id),
      assignee: person(ticket.assignee_id),
      comments: comments.map((comment) => ({
        id: comment.id,
        author_id: comment.author_id ?? null,
        body: comment.body,
        public: comment.public,
        created_at: comment.created_at || undefined,
        author_name: (comment.author_id && people.get(comment.author_id)?.name) || null,
      })),
      comments_truncated: truncated,
    };
  },
});

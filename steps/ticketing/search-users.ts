import * as z from 'zod';
import { builtOnce, cursorPageOutput, defineStep, readAnswer } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { User } from './lib/people-schema.js';

/** The provider's user search pages by offset only, and stops at 10,000 records per query. */
const MAX_RECORDS = 10_000;

const SearchAnswer = builtOnce(() =>
  z.object({
    users: z.array(User()),
    next_page: z.string().nullable().optional(),
    count: z.number().optional(),
  }),
);

export default defineStep({
  id: 'ticketing.search_users',
  integration: ticketing,
  title: 'Search Users',
  description: 'Find users by part of a name, an email address, a phone number, or your own external id.',
  agentDescription:
    'Finds users whose name, email, notes or phone contain the query (the provider search syntax also works: "email:sam@acme.example", "role:agent"), or the one user with an exact external_id. Pass next_cursor back as cursor, with the same query, for more; at most 10,000 results per query. Read-only and safe to retry.',
  keywords: ['find user', 'search users', 'lookup customer', 'email', 'requester', 'agent', 'who'],
  get input() {
    return z
      .strictObject({
        query: z
          .string()
          .trim()
          .min(1)
          .max(1000)
          .optional()
          .describe('Part of a name, email or phone, or a search.'),
        external_id: z.string().min(1).max(255).optional().describe('Your own exact id for the user.'),
        limit: z.number().int().min(1).max(100).default(25).describe('Users per page, 1 to 100.'),
        cursor: z
          .string()
          .regex(/^[1-9]\d{0,4}$/, 'a next_cursor from Search Users')
          .optional()
          .describe('next_cursor from the previous page.'),
      })
      .refine((value) => (value.query === undefined) !== (value.external_id === undefined), {
        message: 'give query or external_id (one of them)',
        path: ['query'],
      });
  },
  get output() {
    return cursorPageOutput('users', User(), {
      items: 'This page of matching users.',
      cursor: 'Pass as cursor (with the same query) for the next page; null on the last page.',
    }).extend({
      count: z.number().nullable().describe('How many users match in all, when the provider says.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { user_ids: '$.users[*].id', emails: '$.users[*].email', next_cursor: '$.next_cursor' },
  examples: [{ title: 'Users called Sam', input: { query: 'sam' } }],
  async run(input, { http }) {
    const page = Number(input.cursor ?? '1');
    const path = ticketingPath('usersSearch');
    const response = await http.request({
      method: 'GET',
      path,
      query: { query: input.query, external_id: input.external_id, page, per_page: input.limit },
    });
    const answer = readAnswer(SearchAnswer(), response.body, `GET ${path}`);
    const hasMore = Boolean(answer.next_page) && (page + 1) * input.limit <= MAX_RECORDS;
    return {
      users: answer.users,
      has_more: hasMore,
      next_cursor: hasMore ? String(page + 1) : null,
      count: answer.count ?? null,
    };
  },
});

import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CommentVisibility } from './lib/comment-schema.js';
import { UserId } from './lib/people-schema.js';
import { Ticket, TicketId, UploadTokens } from './lib/ticket-schema.js';
import { putTicket } from './lib/ticket-update.js';
import { requesterOptions, ticketOptions } from './lib/ticketing-options.js';

const CHECK_HINT =
  'The comment may or may not have been added. List Comments with newest_first: true before adding it again.';

export default defineStep({
  id: 'ticketing.add_comment',
  integration: ticketing,
  title: 'Add Comment',
  description:
    'Add a public reply (the requester sees it) or an internal note (only agents see it) to a ticket, with optional files.',
  agentDescription:
    'Adds one comment to a ticket. visibility is required: "public" emails the requester, "internal" is a note only agents see; choose deliberately. Files: upload each with Upload Attachment first and pass the tokens. author_id posts as another user (the default is the connected user). Not retried after a failure that may have reached the provider (it could post twice): if it fails with outcome unknown, check List Comments (newest_first) before adding it again.',
  keywords: ['comment', 'reply', 'respond', 'internal note', 'private note', 'message customer', 'attach'],
  get input() {
    return z.strictObject({
      ticket_id: TicketId(),
      body: z.string().min(1).max(65_000).describe('The comment text (plain text).'),
      visibility: CommentVisibility(),
      upload_tokens: UploadTokens()
        .optional()
        .describe('Tokens from Upload Attachment; their files go with the comment.'),
      author_id: UserId()
        .optional()
        .describe('Post as this user (an agent, or the requester); the connected user when omitted.'),
    });
  },
  get output() {
    return z.object({
      ticket: Ticket().describe('The ticket after the comment.'),
      comment_id: z.number().nullable().describe('Id of the new comment, when the provider said it.'),
      public: z.boolean().describe('True for a reply the requester sees, false for an internal note.'),
    });
  },
  access: 'write',
  idempotent: false,
  replay: { mode: 'refuse', hint: () => CHECK_HINT },
  options: { ticket_id: ticketOptions, author_id: requesterOptions },
  variables: { ticket_id: '$.ticket.id', comment_id: '$.comment_id', updated_at: '$.ticket.updated_at' },
  examples: [
    {
      title: 'An internal note on ticket 1',
      input: { ticket_id: 1, body: 'Customer is on the legacy SSO plan.', visibility: 'internal' },
    },
  ],
  async run(input, { http }) {
    const isPublic = input.visibility === 'public';
    const comment = definedOnly({
      body: input.body,
      public: isPublic,
      uploads: input.upload_tokens,
      author_id: input.author_id,
    });
    // A PUT that adds a comment is never replayed after an ambiguous failure (putTicket): it could post twice.
    const { ticket, commentId } = await putTicket(http, input.ticket_id, { comment });
    return { ticket, comment_id: commentId, public: isPublic };
  },
});

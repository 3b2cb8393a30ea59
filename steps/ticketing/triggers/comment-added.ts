import * as z from 'zod';
import { builtOnce, defineTrigger } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import { ticketEventExample, ticketEventSchema, ticketVariables } from './lib/ticket-event.js';

const EVENT_TYPE = 'ticket.comment_added';

const Comment = builtOnce(() =>
  z
    .object({
      id: z.union([z.string(), z.number()]).describe('Comment id.'),
      body: z.string().describe('Comment text.'),
      is_public: z.boolean().nullish().describe('False for an internal note.'),
      author: z
        .object({ id: z.union([z.string(), z.number()]).nullish(), name: z.string().nullish() })
        .loose()
        .nullish(),
    })
    .loose(),
);

export default defineTrigger({
  id: 'ticketing.comment_added',
  integration: ticketing,
  title: 'Comment added to ticket',
  description: 'Starts the agent when a comment (public reply or internal note) is added to a ticket.',
  agentDescription:
    'Fires once per new comment. `comment_body` is its text, `comment_public` false for an internal note, `comment_author` its author id.',
  keywords: ['comment', 'reply', 'note', 'customer replied', 'zendesk'],
  get event() {
    return ticketEventSchema(EVENT_TYPE, z.object({ comment: Comment() }).loose());
  },
  variables: {
    ...ticketVariables,
    comment_body: '$.event.comment.body',
    comment_public: '$.event.comment.is_public',
    comment_author: '$.event.comment.author.id',
  },
  get setup() {
    return z
      .object({
        public_only: z
          .boolean()
          .default(false)
          .describe('Only public comments: internal notes do not start the agent.'),
      })
      .strict();
  },
  ...ticketEventDelivery(EVENT_TYPE),
  skipReason: (event, setup) =>
    setup.public_only && event.event.comment.is_public === false
      ? 'the comment is an internal note'
      : undefined,
  example: ticketEventExample(EVENT_TYPE, {
    comment: {
      id: '9001',
      body: 'Turned it off and on again.',
      is_public: true,
      author: { id: '8447388090111', name: 'Ada' },
    },
  }),
});

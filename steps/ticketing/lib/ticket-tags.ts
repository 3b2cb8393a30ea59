import * as z from 'zod';
import { builtOnce, type HttpClient, readAnswer } from '../../../src/kit/index.js';
import { ticketingPath } from './paths.js';
import { Tags, TicketId } from './ticket-schema.js';
import { tagOptions, ticketOptions } from './ticketing-options.js';

/** What Add Tags and Remove Tags take: a ticket and at least one tag. */
export const TicketTagsInput = builtOnce(() =>
  z.strictObject({
    ticket_id: TicketId(),
    tags: Tags().min(1).max(100),
  }),
);

export const TicketTagsOutput = builtOnce(() =>
  z.object({
    ticket_id: z.number().describe('The ticket changed.'),
    tags: z.array(z.string()).describe("The ticket's tags after the change, all of them."),
  }),
);

/**
 * The ticket's tags endpoint: PUT adds the named tags and DELETE removes
 * them, the others untouched; both are safe to repeat (adding a tag twice or
 * removing a missing one changes nothing). PUT answers the whole set; DELETE
 * answers 204 with no body, so the set is read after it.
 */
export async function editTicketTags(
  http: HttpClient,
  method: 'PUT' | 'DELETE',
  input: z.output<ReturnType<typeof TicketTagsInput>>,
): Promise<z.output<ReturnType<typeof TicketTagsOutput>>> {
  const path = ticketingPath('ticketTags', input.ticket_id);
  const edited = await http.request({ method, path, body: { tags: input.tags }, idempotent: true });
  const response = edited.body == null ? await http.request({ method: 'GET', path }) : edited;
  const where = `${edited.body == null ? 'GET' : method} ${path}`;
  const { tags } = readAnswer(z.object({ tags: z.array(z.string()) }), response.body, where);
  return { ticket_id: input.ticket_id, tags };
}

/** What Add Tags and Remove Tags declare alike: one ticket's tags in, its whole set out, safe to repeat. */
export const ticketTagsStep = {
  access: 'write',
  idempotent: true,
  options: { ticket_id: ticketOptions, tags: tagOptions },
  variables: { ticket_id: '$.ticket_id', tags: '$.tags' },
} as const;

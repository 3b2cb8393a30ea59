import * as z from 'zod';
import { definedOnly, defineStep, type HttpClient, isToolstepsError } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { customFieldSchema } from './lib/custom-field-schema.js';
import { ticketingPath } from './lib/paths.js';
import { assigneeFields, Ticket } from './lib/ticket-schema.js';
import { isConflict, putTicket, readTicket, sameInstant, ticketChanged } from './lib/ticket-update.js';
import {
  assigneeOptions,
  groupOptions,
  organizationOptions,
  requesterOptions,
  tagOptions,
  ticketOptions,
} from './lib/ticketing-options.js';
import { UpdateTicketInput } from './lib/update-ticket-input.js';

const REPLAY_HINT =
  'The update may have been applied by an attempt whose answer was lost. Read the ticket (Get Ticket Info) before sending it again.';

/** One ticket PUT, and the comment it adds, if any. */
interface TicketUpdate {
  ticket: Record<string, unknown>;
  adds: 'public_comment' | 'internal_note' | null;
}

export default defineStep({
  id: 'ticketing.update_ticket',
  integration: ticketing,
  title: 'Update Ticket',
  description:
    'Change a ticket: status, priority, type, assignee, tags, custom fields, and add an internal note or a public reply.',
  agentDescription:
    'Updates an existing ticket. Tags: add_tags and remove_tags change only the tags named; replace_tags replaces the whole set (cannot be combined with the other two). internal_note is visible to agents only; public_comment is sent to the requester. An update that adds a comment or note is not retried after an ambiguous failure (it could post twice); check with Get Ticket Info first.',
  keywords: [
    'edit ticket',
    'change status',
    'assign',
    'reply',
    'comment',
    'note',
    'tag',
    'close ticket',
    'solve',
  ],
  get input() {
    return UpdateTicketInput();
  },
  get output() {
    return z.object({
      ticket: Ticket().describe('The ticket after the update.'),
      applied: z
        .object({ public_comment: z.boolean(), internal_note: z.boolean() })
        .describe('Which comments were added.'),
    });
  },
  access: 'write',
  idempotent: false,
  options: {
    ticket_id: ticketOptions,
    assignee: assigneeOptions,
    add_tags: tagOptions,
    remove_tags: tagOptions,
    replace_tags: tagOptions,
    requester_id: requesterOptions,
    group_id: groupOptions,
    organization_id: organizationOptions,
    // Followers are agents; CCs can be anyone.
    add_followers: assigneeOptions,
    remove_followers: assigneeOptions,
    add_collaborators: requesterOptions,
  },
  accountSchema: customFieldSchema,
  variables: { ticket_id: '$.ticket.id', status: '$.ticket.status', tags: '$.ticket.tags' },
  examples: [
    {
      title: 'Solve ticket 2 with a reply and a tag',
      input: {
        ticket_id: 2,
        status: 'solved',
        public_comment: 'Refunded the duplicate charge.',
        add_tags: ['refunded'],
      },
    },
  ],
  async run(input, { http }) {
    if (input.if_updated_at !== undefined) return guardedUpdate(http, input, input.if_updated_at);
    const tagsEdited = await editTags(http, input);
    const { ticket, applied } = await sendUpdates(http, input.ticket_id, ticketUpdates(input), {
      tagsEdited,
    });
    // Only tags changed: the tags endpoint answers with tags alone, so read the ticket.
    return { ticket: ticket ?? (await readTicket(http, input.ticket_id)), applied };
  },
});

/**
 * The update under a collision guard: refused, with nothing sent, when the
 * ticket's updated_at is no longer `ifUpdatedAt`; then every PUT is the
 * provider's safe update, so an edit that lands between our read and our
 * write is refused by the provider too. Tag additions and removals become
 * the whole set computed from the ticket as read, inside the same guarded
 * PUT: the tags endpoint's answer carries no updated_at to guard the next PUT with.
 */
async function guardedUpdate(http: HttpClient, input: UpdateTicketInput, ifUpdatedAt: string) {
  const current = await readTicket(http, input.ticket_id);
  if (!sameInstant(current.updated_at, ifUpdatedAt)) {
    throw ticketChanged(input.ticket_id, ifUpdatedAt, { updatedAt: current.updated_at ?? undefined });
  }
  const edited = input.add_tags || input.remove_tags;
  const tags = edited
    ? [...current.tags, ...(input.add_tags ?? []).filter((tag) => !current.tags.includes(tag))].filter(
        (tag) => !input.remove_tags?.includes(tag),
      )
    : input.replace_tags;
  const updates = ticketUpdates({
    ...input,
    add_tags: undefined,
    remove_tags: undefined,
    replace_tags: tags,
  });
  try {
    const { ticket, applied } = await sendUpdates(http, input.ticket_id, updates, { stamp: ifUpdatedAt });
    return { ticket: ticket ?? current, applied };
  } catch (error) {
    if (!isConflict(error) || error.context.applied) throw error;
    // A refused replay may be our own first attempt that landed; a refused first attempt changed nothing.
    if (error.replayed) throw error.asPossiblyApplied(REPLAY_HINT);
    throw ticketChanged(input.ticket_id, ifUpdatedAt, { cause: error });
  }
}

/**
 * Adds and removes the tags named, and says whether it did. The single-ticket
 * PUT takes `tags` (the whole set) but no add or remove: the provider's
 * description gives those to the ticket's tags endpoint (PUT adds, DELETE
 * removes), both safe to repeat. They go first, so the ticket PUT that
 * follows answers with the final tags.
 */
async function editTags(http: HttpClient, input: UpdateTicketInput): Promise<boolean> {
  const tagEdits = [
    { method: 'PUT' as const, tags: input.add_tags },
    { method: 'DELETE' as const, tags: input.remove_tags },
  ].filter((edit): edit is { method: 'PUT' | 'DELETE'; tags: string[] } => edit.tags !== undefined);
  for (const edit of tagEdits) {
    await http.request({
      method: edit.method,
      path: ticketingPath('ticketTags', input.ticket_id),
      body: { tags: edit.tags },
      idempotent: true,
    });
  }
  return tagEdits.length > 0;
}

/** The ticket PUTs an input asks for: the field changes with the first comment, then the note when there is also a reply. */
function ticketUpdates(input: UpdateTicketInput): TicketUpdate[] {
  const changes = definedOnly({
    status: input.status,
    priority: input.priority,
    type: input.type,
    subject: input.subject,
    ...assigneeFields(input.assignee),
    // `tags` on the ticket replaces the whole set.
    tags: input.replace_tags,
    custom_fields: input.custom_fields,
    requester_id: input.requester_id,
    group_id: input.group_id,
    organization_id: input.organization_id,
    due_at: input.due_at,
    followers: followerChanges(input),
    additional_collaborators: input.add_collaborators,
  });
  // The provider takes one comment per update, so a note and a reply go in two updates.
  const updates: TicketUpdate[] = [];
  const firstComment = input.public_comment
    ? {
        comment: definedOnly({ body: input.public_comment, public: true, uploads: input.upload_tokens }),
        adds: 'public_comment' as const,
      }
    : input.internal_note
      ? {
          comment: definedOnly({ body: input.internal_note, public: false, uploads: input.upload_tokens }),
          adds: 'internal_note' as const,
        }
      : undefined;
  if (Object.keys(changes).length > 0 || firstComment) {
    updates.push({
      ticket: definedOnly({ ...changes, comment: firstComment?.comment }),
      adds: firstComment?.adds ?? null,
    });
  }
  if (input.public_comment && input.internal_note) {
    updates.push({
      ticket: { comment: { body: input.internal_note, public: false } },
      adds: 'internal_note',
    });
  }
  return updates;
}

/** The provider's `followers` edits: `{user_id, action: "put" | "delete"}`, the id as a string (FollowerObject). */
function followerChanges(input: UpdateTicketInput) {
  const edits = [
    ...(input.add_followers ?? []).map((id) => ({ user_id: String(id), action: 'put' })),
    ...(input.remove_followers ?? []).map((id) => ({ user_id: String(id), action: 'delete' })),
  ];
  return edits.length ? edits : undefined;
}

/**
 * Sends the updates in order and answers with the last ticket and which
 * comments were added. A failure after something was saved says what was.
 * With a `stamp`, each PUT is a safe update against the ticket as the one
 * before left it.
 */
async function sendUpdates(
  http: HttpClient,
  ticketId: number,
  updates: TicketUpdate[],
  guard: { tagsEdited?: boolean; stamp?: string },
): Promise<{
  ticket: z.infer<ReturnType<typeof Ticket>> | undefined;
  applied: Record<NonNullable<TicketUpdate['adds']>, boolean>;
}> {
  const applied = { public_comment: false, internal_note: false };
  const tagsEdited = guard.tagsEdited ?? false;
  let ticket: z.infer<ReturnType<typeof Ticket>> | undefined;
  let stamp = guard.stamp;
  for (const [index, update] of updates.entries()) {
    try {
      // A PUT that only sets fields is idempotent; one that adds a comment is not, unless guarded.
      ticket = (await putTicket(http, ticketId, update.ticket, stamp)).ticket;
      if (stamp !== undefined) stamp = ticket.updated_at ?? undefined;
      if (update.adds) applied[update.adds] = true;
    } catch (error) {
      if (isToolstepsError(error) && (index > 0 || tagsEdited)) {
        throw error.with({
          context: { applied: { ...applied, tags: tagsEdited } },
          hint:
            index > 0
              ? 'The field changes and public comment were saved; only the internal note is missing.'
              : 'The tag changes were saved; the other changes were not.',
        });
      }
      throw error;
    }
  }
  return { ticket, applied };
}

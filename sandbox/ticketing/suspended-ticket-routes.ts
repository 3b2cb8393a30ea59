import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import type { TicketRecord } from './ticketing-state.js';
import {
  cursorPage,
  NOT_FOUND,
  publicTicket,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

/** Suspended tickets, cursor-paged (the only paging the description gives this list), each with its `url`. */
function listSuspended(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const held = [...account.suspendedTickets.values()];
  const shape = (record: (typeof held)[number]) => ({
    ...record,
    url: `${base}/api/v2/suspended_tickets/${record.id}.json`,
  });
  return cursorPage(request, held, 'suspended_tickets', shape, 100);
}

/** Deletes one for good: 204, or 404 when there is none (already deleted or recovered). */
function deleteSuspended(request: TicketingRequest): Reply {
  const { account } = request.caller;
  if (!account.suspendedTickets.delete(Number(request.params.id))) return json(404, NOT_FOUND);
  return { status: 204 };
}

/**
 * Makes a ticket of it and takes it off the list: `{"ticket": [TicketObject]}`.
 * As the provider does, the caller becomes the requester (so the ticket is
 * not suspended again); a second recover of the same one is a 404.
 */
function recoverSuspended(request: TicketingRequest): Reply {
  const { account, userId, base } = request.caller;
  const held = account.suspendedTickets.get(Number(request.params.id));
  if (!held) return json(404, NOT_FOUND);
  account.suspendedTickets.delete(held.id);
  const at = account.timestamp();
  const ticket: TicketRecord = {
    id: account.newId('ticket'),
    external_id: null,
    type: null,
    subject: held.subject,
    raw_subject: held.subject,
    description: held.content,
    priority: null,
    status: 'new',
    requester_id: userId,
    submitter_id: userId,
    assignee_id: null,
    organization_id: account.users.get(userId)?.organization_id ?? null,
    group_id: null,
    due_at: null,
    collaborator_ids: [],
    follower_ids: [],
    tags: [],
    custom_fields: [],
    via: { channel: 'email' },
    created_at: at,
    updated_at: at,
    comments: [],
  };
  account.addComment(ticket, userId, held.content, true, held.attachments);
  account.tickets.set(ticket.id, ticket);
  account.changed({ after: ticket, actorId: userId });
  return json(200, { ticket: [publicTicket(ticket, base)] });
}

/** Emails held back: listed, recovered as tickets, deleted. */
export function suspendedTicketRoutes(router: Router<TicketingCaller>): void {
  for (const suffix of ['.json', '']) {
    router
      .on('GET', `/api/v2/suspended_tickets${suffix}`, listSuspended)
      .on('PUT', `/api/v2/suspended_tickets/:id/recover${suffix}`, recoverSuspended)
      .on('DELETE', `/api/v2/suspended_tickets/:id${suffix}`, deleteSuspended);
  }
}

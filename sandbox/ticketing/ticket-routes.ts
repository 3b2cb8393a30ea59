import { definedOnly } from '../../src/values/defined-only.js';
import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { applyPeople, normalizeTags, resolveAssignee, staleUpdate, validateFields } from './ticket-fields.js';
import type { CommentRecord, TicketRecord } from './ticketing-state.js';
import {
  bodyMember,
  cursorPage,
  invalid,
  NOT_FOUND,
  publicTicket,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';
import { takeUploads } from './upload-routes.js';

function ticketOf(request: TicketingRequest): TicketRecord | undefined {
  return request.caller.account.tickets.get(Number(request.params.id));
}

/** Tickets by id, cursor-paged; `external_id` filters (the idempotency handle for creates). */
function listTickets(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  let tickets = [...account.tickets.values()];
  const externalId = request.query.get('external_id');
  if (externalId !== null) tickets = tickets.filter((ticket) => ticket.external_id === externalId);
  return cursorPage(request, tickets, 'tickets', (ticket) => publicTicket(ticket, base), 100);
}

/** 201 with a Location header; a description (or first comment) is required. */
function createTicket(request: TicketingRequest): Reply {
  const { account, userId, base } = request.caller;
  const fields = bodyMember(request, 'ticket');
  if (!fields) return invalid({ ticket: 'is required' });
  const comment = (fields.comment ?? {}) as Record<string, unknown>;
  const description = typeof comment.body === 'string' ? comment.body : fields.description;
  if (typeof description !== 'string' || description.trim() === '') {
    return invalid({ description: 'Description: cannot be blank' });
  }
  const problems = validateFields(account, fields);
  if (Object.keys(problems).length) return invalid(problems);
  const uploads = takeUploads(account, comment.uploads);
  if ('problem' in uploads) return uploads.problem;
  const at = account.timestamp();
  const subject = typeof fields.subject === 'string' ? fields.subject : description.slice(0, 50);
  const ticket: TicketRecord = {
    id: account.newId('ticket'),
    external_id: typeof fields.external_id === 'string' ? fields.external_id : null,
    type: (fields.type as TicketRecord['type']) ?? null,
    subject,
    raw_subject: subject,
    description,
    priority: (fields.priority as TicketRecord['priority']) ?? null,
    status:
      (fields.status as TicketRecord['status']) ??
      (fields.assignee_id || fields.assignee_email ? 'open' : 'new'),
    requester_id: typeof fields.requester_id === 'number' ? fields.requester_id : userId,
    submitter_id: userId,
    assignee_id: resolveAssignee(account, fields) ?? null,
    // The provider files a ticket under its requester's organization unless told otherwise.
    organization_id:
      account.users.get(typeof fields.requester_id === 'number' ? fields.requester_id : userId)
        ?.organization_id ?? null,
    group_id: null,
    due_at: null,
    collaborator_ids: [],
    follower_ids: [],
    tags: normalizeTags(fields.tags),
    custom_fields: Array.isArray(fields.custom_fields)
      ? (fields.custom_fields as TicketRecord['custom_fields'])
      : [],
    via: { channel: 'api' },
    created_at: at,
    updated_at: at,
    comments: [],
  };
  applyPeople(ticket, fields);
  account.addComment(ticket, userId, description, comment.public !== false, uploads.attachments);
  account.tickets.set(ticket.id, ticket);
  account.changed({ after: ticket, actorId: userId });
  return json(
    201,
    { ticket: publicTicket(ticket, base), audit: { ticket_id: ticket.id } },
    {
      location: `${base}/api/v2/tickets/${ticket.id}.json`,
    },
  );
}

/** One ticket; `include=users` sideloads requester, submitter and assignee. */
function showTicket(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  const include = (request.query.get('include') ?? '').split(',');
  const users = include.includes('users')
    ? [ticket.requester_id, ticket.submitter_id, ticket.assignee_id]
        .filter((id, index, all): id is number => id !== null && all.indexOf(id) === index)
        .map((id) => account.users.get(id))
        .filter(Boolean)
    : undefined;
  return json(200, { ticket: publicTicket(ticket, base), ...definedOnly({ users }) });
}

/**
 * Updates fields; `tags` replaces the set, `additional_tags` adds to it and
 * `remove_tags` takes the named ones out (provider-facts: the OpenAPI
 * description omits the two, the API and its own clients use them).
 */
function updateTicket(request: TicketingRequest): Reply {
  const { account, userId, base } = request.caller;
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  const fields = bodyMember(request, 'ticket');
  if (!fields) return invalid({ ticket: 'is required' });
  const stale = staleUpdate(ticket, fields);
  if (stale) return stale;
  if (ticket.status === 'closed') return invalid({ status: 'Status: closed prevents ticket update' });
  if (fields.status === 'new' && ticket.status !== 'new')
    return invalid({ status: 'Status: cannot be set back to new' });
  const problems = validateFields(account, fields);
  if (Object.keys(problems).length) return invalid(problems);
  const before = account.snapshot(ticket);
  for (const key of ['status', 'priority', 'type', 'subject', 'external_id'] as const) {
    if (fields[key] !== undefined) (ticket as unknown as Record<string, unknown>)[key] = fields[key];
  }
  if (fields.subject !== undefined) ticket.raw_subject = String(fields.subject);
  const assignee = resolveAssignee(account, fields);
  if (assignee !== undefined) ticket.assignee_id = assignee;
  if (fields.tags !== undefined) ticket.tags = normalizeTags(fields.tags);
  if (fields.additional_tags !== undefined) {
    const added = normalizeTags(fields.additional_tags);
    ticket.tags = [...ticket.tags, ...added.filter((tag) => !ticket.tags.includes(tag))];
  }
  if (fields.remove_tags !== undefined) {
    const removed = normalizeTags(fields.remove_tags);
    ticket.tags = ticket.tags.filter((tag) => !removed.includes(tag));
  }
  applyPeople(ticket, fields);
  if (Array.isArray(fields.custom_fields)) {
    for (const field of fields.custom_fields as { id: number; value: unknown }[]) {
      const existing = ticket.custom_fields.find((candidate) => candidate.id === field.id);
      if (existing) existing.value = field.value;
      else ticket.custom_fields.push({ id: field.id, value: field.value });
    }
  }
  const comment = fields.comment as Record<string, unknown> | undefined;
  const uploads = takeUploads(account, comment?.uploads);
  if ('problem' in uploads) return uploads.problem;
  // A comment may be posted as another user (`author_id`), who must exist.
  const authorId = typeof comment?.author_id === 'number' ? comment.author_id : userId;
  if (!account.users.has(authorId)) return invalid({ author_id: 'Author: is invalid' });
  const added =
    comment && typeof comment.body === 'string' && comment.body !== ''
      ? account.addComment(ticket, authorId, comment.body, comment.public !== false, uploads.attachments)
      : undefined;
  ticket.updated_at = account.timestamp();
  account.changed({ before, after: ticket, comment: added, actorId: userId });
  return json(200, { ticket: publicTicket(ticket, base), audit: audit(ticket, userId, added) });
}

/** The update's audit (AuditObject): who changed the ticket, when, and the comment event when one was added. */
function audit(ticket: TicketRecord, authorId: number, added: CommentRecord | undefined) {
  const events = added ? [{ id: added.id, type: 'Comment', body: added.body }] : [];
  return { ticket_id: ticket.id, author_id: authorId, created_at: ticket.updated_at, events };
}

/** 204; the ticket is gone (a second delete is a 404). */
function deleteTicket(request: TicketingRequest): Reply {
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  request.caller.account.tickets.delete(ticket.id);
  request.caller.account.deletedTicketIds.push(ticket.id);
  return { status: 204 };
}

/** A ticket's comments, cursor-paged; `include=users` sideloads their authors. */
function listComments(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  // The description: with cursor paging, `sort=-created_at` lists newest first.
  const newestFirst = request.query.get('sort') === '-created_at';
  const reply = cursorPage(request, ticket.comments, 'comments', (comment) => comment, 100, newestFirst);
  if ((request.query.get('include') ?? '').split(',').includes('users') && reply.body) {
    const ids = [...new Set(ticket.comments.map((comment) => comment.author_id))];
    (reply.body as Record<string, unknown>).users = ids.map((id) => account.users.get(id)).filter(Boolean);
  }
  return reply;
}

/** Adds a comment (public unless `public: false`). */
function addComment(request: TicketingRequest): Reply {
  const { account, userId, assumptions } = request.caller;
  // The spec lists this path; the provider's description does not (an assumption, on by default).
  if (!assumptions.post_comments_endpoint)
    return json(404, { error: 'InvalidEndpoint', description: 'Not found' });
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  const comment = bodyMember(request, 'comment');
  if (!comment || typeof comment.body !== 'string' || comment.body === '')
    return invalid({ body: 'cannot be blank' });
  const before = account.snapshot(ticket);
  const created = account.addComment(ticket, userId, comment.body, comment.public !== false);
  ticket.updated_at = account.timestamp();
  account.changed({ before, after: ticket, comment: created, actorId: userId });
  return json(201, { comment: created });
}

/**
 * The ticket's tags endpoint, body `{"tags": [...]}`: GET lists, POST sets
 * the whole set (201), PUT adds (200), DELETE removes (204, no body).
 */
function ticketTags(request: TicketingRequest): Reply {
  const { account, userId } = request.caller;
  const ticket = ticketOf(request);
  if (!ticket) return json(404, NOT_FOUND);
  if (request.method === 'GET') return json(200, { tags: ticket.tags });
  const tags = (request.body as { tags?: unknown } | undefined)?.tags;
  if (!Array.isArray(tags)) return invalid({ tags: 'is required: an array of tags' });
  const stale = staleUpdate(ticket, request.body as Record<string, unknown> | undefined);
  if (stale) return stale;
  if (ticket.status === 'closed') return invalid({ status: 'Status: closed prevents ticket update' });
  const before = account.snapshot(ticket);
  const named = normalizeTags(tags);
  if (request.method === 'POST') ticket.tags = named;
  if (request.method === 'PUT')
    ticket.tags = [...ticket.tags, ...named.filter((tag) => !ticket.tags.includes(tag))];
  if (request.method === 'DELETE') ticket.tags = ticket.tags.filter((tag) => !named.includes(tag));
  ticket.updated_at = account.timestamp();
  account.changed({ before, after: ticket, actorId: userId });
  if (request.method === 'DELETE') return { status: 204 };
  return json(request.method === 'POST' ? 201 : 200, { tags: ticket.tags });
}

/** Tickets, their comments and their tags. */
export function ticketRoutes(router: Router<TicketingCaller>): void {
  router
    .on('GET', '/api/v2/tickets.json', listTickets)
    .on('POST', '/api/v2/tickets.json', createTicket)
    .on('GET', '/api/v2/tickets/:id.json', showTicket)
    .on('PUT', '/api/v2/tickets/:id.json', updateTicket)
    .on('DELETE', '/api/v2/tickets/:id.json', deleteTicket)
    .on('GET', '/api/v2/tickets/:id/comments.json', listComments)
    .on(['GET', 'POST', 'PUT', 'DELETE'], '/api/v2/tickets/:id/tags.json', ticketTags)
    .on('POST', '/api/v2/tickets/:id/comments.json', addComment);
}

import type { Clock } from '../../src/clock.js';
import type { Emulator } from '../emulator.js';
import { FixedWindowLimiter } from '../fixed-window-limiter.js';
import { OAuthProvider } from '../oauth-provider.js';
import { Router } from '../router.js';
import { bearerToken, json, type Reply, type SandboxRequest, text, withHeaders } from '../sandbox-http.js';
import { parseSearchQuery, resultTypeOf, SearchQueryError, ticketMatches } from './search-query.js';
import {
  type TicketingAccount as Account,
  PRIORITIES,
  STATUSES,
  TICKET_TYPES,
  TicketingAccount,
  type TicketRecord,
} from './ticketing-state.js';

export interface TicketingEmulatorOptions {
  clock: Clock;
  /** Requests per minute per account (the provider's plans range 200 to 2,500). */
  requestsPerMinute?: number;
  accessTokenTtlMs?: number;
}

/** Public client the CLI uses (PKCE), and a confidential one with a secret. */
export const TICKETING_SANDBOX_CLIENTS = [
  { id: 'toolsteps-cli' },
  { id: 'toolsteps-server', secret: 'sandbox-client-secret' },
];

const SEARCH_CAP = 1000;
const NOT_FOUND = { error: 'RecordNotFound', description: 'Not found' };

function invalid(details: Record<string, string>): Reply {
  return json(422, {
    error: 'RecordInvalid',
    description: 'Record validation errors',
    details: Object.fromEntries(
      Object.entries(details).map(([field, description]) => [field, [{ description }]]),
    ),
  });
}

function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString('base64url');
}

function decodeCursor(cursor: string | null): number | undefined {
  if (!cursor) return undefined;
  const match = /^id:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new SearchQueryError('Invalid cursor.');
  return Number(match[1]);
}

function publicTicket(ticket: TicketRecord, base: string) {
  const { comments: _comments, ...rest } = ticket;
  return { ...rest, url: `${base}/api/v2/tickets/${ticket.id}.json` };
}

interface Caller {
  account: Account;
  userId: number;
  scopes: string[];
  base: string;
}

/**
 * The ticketing provider (Zendesk Support API v2 shape): tickets with
 * comments, users, organizations, cursor and offset pagination, search with
 * its query language and 1,000-result cap, the search export, OAuth with
 * rotating refresh tokens, and per-minute rate limits with the real headers.
 */
export class TicketingEmulator implements Emulator {
  readonly mount = 'ticketing';
  readonly oauth: OAuthProvider;
  readonly limiter: FixedWindowLimiter;
  /** When false, a 429 comes without Retry-After, as the provider sometimes sends it. */
  sendRetryAfter = true;
  private readonly accounts = new Map<string, Account>();
  private readonly api = new Router();

  constructor(private readonly options: TicketingEmulatorOptions) {
    this.oauth = new OAuthProvider({
      clock: options.clock,
      tokenPrefix: 'tkt',
      accessTokenTtlMs: options.accessTokenTtlMs ?? 30 * 60_000,
      issuesRefreshTokens: true,
      clients: TICKETING_SANDBOX_CLIENTS,
    });
    this.limiter = new FixedWindowLimiter(options.clock, options.requestsPerMinute ?? 700, 60_000);
    this.routes();
  }

  account(subdomain: string): Account {
    const key = subdomain.toLowerCase();
    let account = this.accounts.get(key);
    if (!account) {
      account = new TicketingAccount(key, () => new Date(this.options.clock.now()).toISOString());
      this.accounts.set(key, account);
    }
    return account;
  }

  reset(): void {
    this.accounts.clear();
    this.oauth.reset();
    this.limiter.reset();
  }

  /** Tokens for the seeded admin, without the browser step. */
  issueTokens(subdomain: string, scopes = ['read', 'write']) {
    this.account(subdomain);
    return this.oauth.issue(subdomain.toLowerCase(), 1, scopes);
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    const [, subdomain = '', ...rest] = request.path.split('/');
    if (!/^[a-z0-9-]{1,63}$/i.test(subdomain)) return json(404, NOT_FOUND);
    const path = `/${rest.join('/')}`;
    const account = this.account(subdomain);
    if (path === '/oauth/authorizations/new' && request.method === 'GET') {
      return this.oauth.authorize(request.query, account.subdomain, 1);
    }
    if (path === '/oauth/tokens' && request.method === 'POST')
      return this.oauth.exchange(request.body, account.subdomain);

    const verdict = this.limiter.consume(account.subdomain);
    const now = this.options.clock.now();
    const resetSeconds = Math.max(1, Math.ceil((verdict.resetAt - now) / 1000));
    const isList = request.method === 'GET' && !/\/\d+(\.json)?$/.test(path);
    const headers: Record<string, string> = {
      'x-rate-limit': String(verdict.limit),
      'x-rate-limit-remaining': String(verdict.remaining),
      ...(isList
        ? {
            'ratelimit-limit': String(verdict.limit),
            'ratelimit-remaining': String(verdict.remaining),
            'ratelimit-reset': String(resetSeconds),
          }
        : {}),
    };
    if (!verdict.allowed) {
      // The provider answers 429 as plain text, with Retry-After in seconds (sometimes missing).
      return text(
        429,
        'Rate limit for ticket updates exceeded, please wait before updating this ticket again',
        {
          ...headers,
          ...(this.sendRetryAfter ? { 'retry-after': String(resetSeconds) } : {}),
        },
      );
    }
    const check = this.oauth.check(bearerToken(request.headers), account.subdomain);
    if (!check.ok) {
      return withHeaders(
        json(401, { error: 'invalid_token', description: "Couldn't authenticate you" }),
        headers,
      );
    }
    const writes = request.method !== 'GET';
    if (writes && !check.scopes.some((scope) => scope === 'write' || scope.endsWith(':write'))) {
      return withHeaders(
        json(403, { error: 'Forbidden', description: 'You do not have access to this page' }),
        headers,
      );
    }
    const found = this.api.match({ method: request.method, path });
    if (!found)
      return withHeaders(json(404, { error: 'InvalidEndpoint', description: 'Not found' }), headers);
    if (found === 'method') return withHeaders(json(405, { error: 'MethodNotAllowed' }), headers);
    const host = request.headers.host ?? '127.0.0.1';
    const caller: Caller = {
      account,
      userId: check.userId,
      scopes: check.scopes,
      base: `http://${host}/ticketing/${account.subdomain}`,
    };
    try {
      const reply = await found.handler({ ...request, path, params: found.params, caller } as SandboxRequest);
      return withHeaders(reply, headers);
    } catch (error) {
      if (error instanceof SearchQueryError) {
        return withHeaders(json(400, { error: 'InvalidValue', description: error.message }), headers);
      }
      throw error;
    }
  }

  private routes(): void {
    const caller = (request: SandboxRequest) => (request as SandboxRequest & { caller: Caller }).caller;
    const body = (request: SandboxRequest, member: string): Record<string, unknown> | undefined => {
      const value = (request.body as Record<string, unknown> | undefined)?.[member];
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    };
    const ticketOf = (request: SandboxRequest) =>
      caller(request).account.tickets.get(Number(request.params.id));

    this.api
      .on('GET', '/api/v2/tickets.json', (request) => {
        const { account, base } = caller(request);
        let tickets = [...account.tickets.values()];
        const externalId = request.query.get('external_id');
        if (externalId !== null) tickets = tickets.filter((ticket) => ticket.external_id === externalId);
        return this.cursorPage(request, tickets, 'tickets', (ticket) => publicTicket(ticket, base), 100);
      })
      .on('POST', '/api/v2/tickets.json', (request) => {
        const { account, userId, base } = caller(request);
        const fields = body(request, 'ticket');
        if (!fields) return invalid({ ticket: 'is required' });
        const comment = (fields.comment ?? {}) as Record<string, unknown>;
        const description = typeof comment.body === 'string' ? comment.body : fields.description;
        if (typeof description !== 'string' || description.trim() === '') {
          return invalid({ description: 'Description: cannot be blank' });
        }
        const problems = this.validateFields(account, fields);
        if (Object.keys(problems).length) return invalid(problems);
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
          assignee_id: this.resolveAssignee(account, fields) ?? null,
          organization_id: null,
          group_id: null,
          collaborator_ids: [],
          follower_ids: [],
          tags: this.normalizeTags(fields.tags),
          custom_fields: Array.isArray(fields.custom_fields)
            ? (fields.custom_fields as TicketRecord['custom_fields'])
            : [],
          via: { channel: 'api' },
          created_at: at,
          updated_at: at,
          comments: [],
        };
        account.addComment(ticket, userId, description, comment.public !== false);
        account.tickets.set(ticket.id, ticket);
        return json(
          201,
          { ticket: publicTicket(ticket, base), audit: { ticket_id: ticket.id } },
          {
            location: `${base}/api/v2/tickets/${ticket.id}.json`,
          },
        );
      })
      .on('GET', '/api/v2/tickets/:id.json', (request) => {
        const { account, base } = caller(request);
        const ticket = ticketOf(request);
        if (!ticket) return json(404, NOT_FOUND);
        const include = (request.query.get('include') ?? '').split(',');
        const users = include.includes('users')
          ? [ticket.requester_id, ticket.submitter_id, ticket.assignee_id]
              .filter((id, index, all): id is number => id !== null && all.indexOf(id) === index)
              .map((id) => account.users.get(id))
              .filter(Boolean)
          : undefined;
        return json(200, { ticket: publicTicket(ticket, base), ...(users ? { users } : {}) });
      })
      .on('PUT', '/api/v2/tickets/:id.json', (request) => {
        const { account, userId, base } = caller(request);
        const ticket = ticketOf(request);
        if (!ticket) return json(404, NOT_FOUND);
        const fields = body(request, 'ticket');
        if (!fields) return invalid({ ticket: 'is required' });
        if (ticket.status === 'closed') return invalid({ status: 'Status: closed prevents ticket update' });
        if (fields.status === 'new' && ticket.status !== 'new')
          return invalid({ status: 'Status: cannot be set back to new' });
        const problems = this.validateFields(account, fields);
        if (Object.keys(problems).length) return invalid(problems);
        for (const key of ['status', 'priority', 'type', 'subject', 'external_id'] as const) {
          if (fields[key] !== undefined) (ticket as unknown as Record<string, unknown>)[key] = fields[key];
        }
        if (fields.subject !== undefined) ticket.raw_subject = String(fields.subject);
        const assignee = this.resolveAssignee(account, fields);
        if (assignee !== undefined) ticket.assignee_id = assignee;
        if (fields.tags !== undefined) ticket.tags = this.normalizeTags(fields.tags);
        for (const tag of this.normalizeTags(fields.additional_tags))
          if (!ticket.tags.includes(tag)) ticket.tags.push(tag);
        const removed = new Set(this.normalizeTags(fields.remove_tags));
        ticket.tags = ticket.tags.filter((tag) => !removed.has(tag));
        if (Array.isArray(fields.custom_fields)) {
          for (const field of fields.custom_fields as { id: number; value: unknown }[]) {
            const existing = ticket.custom_fields.find((candidate) => candidate.id === field.id);
            if (existing) existing.value = field.value;
            else ticket.custom_fields.push({ id: field.id, value: field.value });
          }
        }
        const comment = fields.comment as Record<string, unknown> | undefined;
        if (comment && typeof comment.body === 'string' && comment.body !== '') {
          account.addComment(ticket, userId, comment.body, comment.public !== false);
        }
        ticket.updated_at = account.timestamp();
        return json(200, { ticket: publicTicket(ticket, base), audit: { ticket_id: ticket.id } });
      })
      .on('DELETE', '/api/v2/tickets/:id.json', (request) => {
        const ticket = ticketOf(request);
        if (!ticket) return json(404, NOT_FOUND);
        caller(request).account.tickets.delete(ticket.id);
        return { status: 204 };
      })
      .on('GET', '/api/v2/tickets/:id/comments.json', (request) => {
        const { account } = caller(request);
        const ticket = ticketOf(request);
        if (!ticket) return json(404, NOT_FOUND);
        const reply = this.cursorPage(request, ticket.comments, 'comments', (comment) => comment, 100);
        if ((request.query.get('include') ?? '').split(',').includes('users') && reply.body) {
          const ids = [...new Set(ticket.comments.map((comment) => comment.author_id))];
          (reply.body as Record<string, unknown>).users = ids
            .map((id) => account.users.get(id))
            .filter(Boolean);
        }
        return reply;
      })
      .on('POST', '/api/v2/tickets/:id/comments.json', (request) => {
        const { account, userId } = caller(request);
        const ticket = ticketOf(request);
        if (!ticket) return json(404, NOT_FOUND);
        const comment = body(request, 'comment');
        if (!comment || typeof comment.body !== 'string' || comment.body === '')
          return invalid({ body: 'cannot be blank' });
        const created = account.addComment(ticket, userId, comment.body, comment.public !== false);
        ticket.updated_at = account.timestamp();
        return json(201, { comment: created });
      })
      .on('GET', '/api/v2/users.json', (request) =>
        this.cursorPage(request, [...caller(request).account.users.values()], 'users', (user) => user, 100),
      )
      .on('GET', '/api/v2/users/:id.json', (request) => {
        const user = caller(request).account.users.get(Number(request.params.id));
        return user ? json(200, { user }) : json(404, NOT_FOUND);
      })
      .on('POST', '/api/v2/users.json', (request) => {
        const { account } = caller(request);
        const fields = body(request, 'user');
        if (!fields || typeof fields.name !== 'string' || fields.name === '')
          return invalid({ name: 'Name: cannot be blank' });
        if (typeof fields.email === 'string' && account.userByEmail(fields.email)) {
          return invalid({ email: `Email: ${fields.email} is already being used by another user` });
        }
        const role = ['end-user', 'agent', 'admin'].includes(String(fields.role))
          ? (fields.role as 'end-user')
          : 'end-user';
        const user = account.addUser({ name: fields.name, email: String(fields.email ?? ''), role });
        return json(201, { user });
      })
      .on('PUT', '/api/v2/users/:id.json', (request) => {
        const user = caller(request).account.users.get(Number(request.params.id));
        if (!user) return json(404, NOT_FOUND);
        const fields = body(request, 'user') ?? {};
        if (typeof fields.name === 'string') user.name = fields.name;
        if (typeof fields.email === 'string') user.email = fields.email;
        user.updated_at = caller(request).account.timestamp();
        return json(200, { user });
      })
      .on('GET', '/api/v2/organizations.json', (request) =>
        this.cursorPage(
          request,
          [...caller(request).account.organizations.values()],
          'organizations',
          (org) => org,
          100,
        ),
      )
      .on('GET', '/api/v2/organizations/:id.json', (request) => {
        const organization = caller(request).account.organizations.get(Number(request.params.id));
        return organization ? json(200, { organization }) : json(404, NOT_FOUND);
      })
      .on('GET', '/api/v2/search.json', (request) => this.search(request, caller(request)))
      .on('GET', '/api/v2/search/export.json', (request) => this.searchExport(request, caller(request)))
      .on('GET', '/api/v2/search/export', (request) => this.searchExport(request, caller(request)));
  }

  private validateFields(account: Account, fields: Record<string, unknown>): Record<string, string> {
    const problems: Record<string, string> = {};
    const oneOf = (key: string, allowed: readonly string[]) => {
      if (fields[key] !== undefined && fields[key] !== null && !allowed.includes(String(fields[key]))) {
        problems[key] = `${key}: ${String(fields[key])} is not valid`;
      }
    };
    oneOf('status', STATUSES);
    oneOf('priority', PRIORITIES);
    oneOf('type', TICKET_TYPES);
    if (typeof fields.assignee_email === 'string') {
      const user = account.userByEmail(fields.assignee_email);
      if (!user || user.role === 'end-user')
        problems.assignee = `Assignee: ${fields.assignee_email} is not an agent`;
    }
    if (typeof fields.assignee_id === 'number') {
      const user = account.users.get(fields.assignee_id);
      if (!user || user.role === 'end-user') problems.assignee = 'Assignee: is not an agent';
    }
    return problems;
  }

  private resolveAssignee(account: Account, fields: Record<string, unknown>): number | null | undefined {
    if (typeof fields.assignee_email === 'string') return account.userByEmail(fields.assignee_email)?.id;
    if (typeof fields.assignee_id === 'number' || fields.assignee_id === null)
      return fields.assignee_id as number | null;
    return undefined;
  }

  private normalizeTags(value: unknown): string[] {
    if (!Array.isArray(value)) return [];
    return [...new Set(value.map((tag) => String(tag).toLowerCase().replace(/\s+/g, '_')))];
  }

  /** Cursor pagination: `page[size]` (max 100) and `page[after]`; offset `page`/`per_page` stops at 10,000. */
  private cursorPage<T extends { id: number }>(
    request: SandboxRequest,
    all: T[],
    member: string,
    shape: (item: T) => unknown,
    maxSize: number,
  ): Reply {
    const sorted = [...all].sort((a, b) => a.id - b.id);
    if (request.query.has('page') && !request.query.has('page[after]') && !request.query.has('page[size]')) {
      const page = Number(request.query.get('page') ?? '1');
      const perPage = Math.min(100, Number(request.query.get('per_page') ?? '100'));
      if (page * perPage > 10_000) {
        return json(400, {
          error: 'invalid',
          description: 'Offset pagination is limited to the first 10,000 records; use cursor pagination.',
        });
      }
      const slice = sorted.slice((page - 1) * perPage, page * perPage);
      return json(200, {
        [member]: slice.map(shape),
        count: sorted.length,
        next_page: page * perPage < sorted.length ? `page=${page + 1}` : null,
        previous_page: page > 1 ? `page=${page - 1}` : null,
      });
    }
    const sizeRaw = Number(request.query.get('page[size]') ?? maxSize);
    if (!Number.isInteger(sizeRaw) || sizeRaw < 1 || sizeRaw > maxSize) {
      return json(400, {
        error: 'InvalidPaginationParameter',
        description: `page[size] must be between 1 and ${maxSize}`,
      });
    }
    let after: number | undefined;
    try {
      after = decodeCursor(request.query.get('page[after]'));
    } catch {
      return json(400, {
        error: 'InvalidPaginationParameter',
        description: 'page[after] is not a valid cursor',
      });
    }
    const rest = after === undefined ? sorted : sorted.filter((item) => item.id > after);
    const slice = rest.slice(0, sizeRaw);
    const hasMore = rest.length > slice.length;
    const last = slice.at(-1);
    const first = slice[0];
    return json(200, {
      [member]: slice.map(shape),
      meta: {
        has_more: hasMore,
        after_cursor: last ? encodeCursor(last.id) : null,
        before_cursor: first ? encodeCursor(first.id) : null,
      },
      links: { next: hasMore && last ? `?page[after]=${encodeCursor(last.id)}` : null, prev: null },
    });
  }

  private matching(request: SandboxRequest, caller: Caller): TicketRecord[] {
    const terms = parseSearchQuery(request.query.get('query') ?? '');
    const type = resultTypeOf(terms) ?? 'ticket';
    if (type !== 'ticket') return [];
    return [...caller.account.tickets.values()].filter((ticket) =>
      ticketMatches(caller.account, ticket, terms, caller.userId),
    );
  }

  private search(request: SandboxRequest, caller: Caller): Reply {
    const query = request.query.get('query');
    if (!query) return json(400, { error: 'InvalidValue', description: 'query is required' });
    const page = Math.max(1, Number(request.query.get('page') ?? '1'));
    const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? '100')));
    if (page * perPage > SEARCH_CAP) {
      return json(422, {
        error: 'invalid',
        description: 'Invalid search: Requested response size was greater than Search Response Limits',
      });
    }
    let matched = this.matching(request, caller);
    const sortBy = request.query.get('sort_by');
    const descending = request.query.get('sort_order') !== 'asc';
    if (sortBy) {
      const rank = (ticket: TicketRecord): string | number => {
        if (sortBy === 'priority') return PRIORITIES.indexOf(ticket.priority ?? 'low');
        if (sortBy === 'status') return STATUSES.indexOf(ticket.status);
        if (sortBy === 'ticket_type') return ticket.type ?? '';
        return sortBy === 'updated_at' ? ticket.updated_at : ticket.created_at;
      };
      matched = matched.sort((a, b) => {
        const left = rank(a);
        const right = rank(b);
        const order = left < right ? -1 : left > right ? 1 : a.id - b.id;
        return descending ? -order : order;
      });
    }
    const slice = matched.slice((page - 1) * perPage, page * perPage);
    const more = page * perPage < Math.min(matched.length, SEARCH_CAP);
    const next = `${caller.base}/api/v2/search.json?page=${page + 1}&per_page=${perPage}&query=${encodeURIComponent(query)}`;
    return json(200, {
      results: slice.map((ticket) => ({ ...publicTicket(ticket, caller.base), result_type: 'ticket' })),
      count: matched.length,
      next_page: more ? next : null,
      previous_page: page > 1 ? next.replace(`page=${page + 1}`, `page=${page - 1}`) : null,
      facets: null,
    });
  }

  private searchExport(request: SandboxRequest, caller: Caller): Reply {
    if (!request.query.get('filter[type]')) {
      return json(400, { error: 'InvalidValue', description: 'filter[type] is required for search export' });
    }
    const tickets = this.matching(request, caller);
    const reply = this.cursorPage(
      request,
      tickets,
      'results',
      (ticket) => ({ ...publicTicket(ticket, caller.base), result_type: 'ticket' }),
      1000,
    );
    return reply;
  }
}

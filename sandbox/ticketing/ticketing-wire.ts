import type { RouteRequest } from '../router.js';
import { json, type Reply, type SandboxRequest } from '../sandbox-http.js';
import { SearchQueryError } from './search-query.js';
import type { TicketingAccount } from './ticketing-account.js';
import type { TicketingAssumptions } from './ticketing-assumptions.js';
import type { TicketRecord } from './ticketing-state.js';
import type { TicketingWebhookSender } from './ticketing-webhook-sender.js';

/** Who is calling: the account of the subdomain, the token's user and scopes, and the account's base URL. */
export interface TicketingCaller {
  account: TicketingAccount;
  userId: number;
  scopes: string[];
  base: string;
  /** Sends the account's webhook deliveries (the test endpoint uses it directly). */
  webhooks: TicketingWebhookSender;
  /** What the provider's description leaves open, as this sandbox was told to assume it. */
  assumptions: TicketingAssumptions;
}

export type TicketingRequest = RouteRequest<TicketingCaller>;

export const NOT_FOUND = { error: 'RecordNotFound', description: 'Not found' };

/** The provider's 422: `{error: "RecordInvalid", details: {<field>: [{description}]}}`. */
export function invalid(details: Record<string, string>): Reply {
  return json(422, {
    error: 'RecordInvalid',
    description: 'Record validation errors',
    details: Object.fromEntries(
      Object.entries(details).map(([field, description]) => [field, [{ description }]]),
    ),
  });
}

/** The object member of a JSON body (`{"ticket": {...}}`), or undefined. */
export function bodyMember(request: SandboxRequest, member: string): Record<string, unknown> | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[member];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

export function publicTicket(ticket: TicketRecord, base: string) {
  const { comments: _comments, ...rest } = ticket;
  return { ...rest, url: `${base}/api/v2/tickets/${ticket.id}.json` };
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

/**
 * A link to another page of the same list, as the provider writes them:
 * absolute, with every query parameter of the request kept and only the
 * paging ones changed (clients such as the provider's own follow them as is).
 */
export function pageLink(request: TicketingRequest, changes: Record<string, string>): string {
  const url = new URL(`${request.caller.base}${request.path}`);
  for (const [key, value] of request.query) url.searchParams.append(key, value);
  for (const [key, value] of Object.entries(changes)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Cursor pagination: `page[size]` (max 100) and `page[after]`; offset
 * `page`/`per_page` stops at 10,000. `descending` lists newest (highest id) first.
 */
export function cursorPage<T extends { id: number }>(
  request: TicketingRequest,
  all: T[],
  member: string,
  shape: (item: T) => unknown,
  maxSize: number,
  descending = false,
): Reply {
  const sorted = [...all].sort((a, b) => (descending ? b.id - a.id : a.id - b.id));
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
      next_page: page * perPage < sorted.length ? pageLink(request, { page: String(page + 1) }) : null,
      previous_page: page > 1 ? pageLink(request, { page: String(page - 1) }) : null,
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
  const rest =
    after === undefined ? sorted : sorted.filter((item) => (descending ? item.id < after : item.id > after));
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
    links: {
      next: hasMore && last ? pageLink(request, { 'page[after]': encodeCursor(last.id) }) : null,
      prev: null,
    },
  });
}

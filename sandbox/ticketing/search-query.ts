import type { TicketingAccount } from './ticketing-account.js';
import { PRIORITIES, STATUSES, TICKET_TYPES, type TicketRecord } from './ticketing-state.js';

/**
 * The provider's search language, as far as the emulator needs it:
 * `key:value`, `key>value`, `key<value` (also >= <=), free words,
 * "quoted phrases", and `-` in front of any term to negate it.
 */
export type Operator = ':' | '>' | '<' | '>=' | '<=';

export type SearchTerm =
  | { kind: 'field'; key: string; operator: Operator; value: string; negated: boolean }
  | { kind: 'text'; value: string; phrase: boolean; negated: boolean };

const TOKEN = /(-?)"([^"]*)"|(-?)([a-z_]+)(>=|<=|:|>|<)("([^"]*)"|\S*)|(-?)(\S+)/gi;

export function parseSearchQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const match of query.matchAll(TOKEN)) {
    if (match[2] !== undefined) {
      terms.push({ kind: 'text', value: match[2].toLowerCase(), phrase: true, negated: match[1] === '-' });
    } else if (match[4] !== undefined) {
      const value = (match[7] ?? match[6] ?? '').toLowerCase();
      terms.push({
        kind: 'field',
        key: match[4].toLowerCase(),
        operator: match[5] as Operator,
        value,
        negated: match[3] === '-',
      });
    } else if (match[9] !== undefined) {
      terms.push({ kind: 'text', value: match[9].toLowerCase(), phrase: false, negated: match[8] === '-' });
    }
  }
  return terms;
}

export class SearchQueryError extends Error {}

const RESULT_TYPES = new Set(['ticket', 'user', 'organization', 'group']);

/** The kind of record a query asks for (`type:ticket` by default for tickets). */
export function resultTypeOf(terms: SearchTerm[]): string | undefined {
  const term = terms.find(
    (candidate) =>
      candidate.kind === 'field' &&
      candidate.key === 'type' &&
      RESULT_TYPES.has(candidate.value) &&
      !candidate.negated,
  );
  return term?.kind === 'field' ? term.value : undefined;
}

function compareRank(
  list: readonly string[],
  actual: string | null,
  operator: Operator,
  wanted: string,
): boolean {
  const want = list.indexOf(wanted);
  if (want === -1) throw new SearchQueryError(`Unknown value "${wanted}".`);
  if (actual === null) return false;
  const have = list.indexOf(actual);
  switch (operator) {
    case ':':
      return have === want;
    case '>':
      return have > want;
    case '<':
      return have < want;
    case '>=':
      return have >= want;
    case '<=':
      return have <= want;
  }
}

function parseDate(value: string): number {
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value.toUpperCase());
  if (Number.isNaN(time)) throw new SearchQueryError(`"${value}" is not a date.`);
  return time;
}

function compareDate(actual: string, operator: Operator, wanted: string): boolean {
  const have = Date.parse(actual);
  const want = parseDate(wanted);
  if (operator === ':') {
    return wanted.length === 10 ? have >= want && have < want + 86_400_000 : have === want;
  }
  return operator === '>'
    ? have > want
    : operator === '<'
      ? have < want
      : operator === '>='
        ? have >= want
        : have <= want;
}

function userMatches(account: TicketingAccount, userId: number | null, value: string, meId: number): boolean {
  if (value === 'none') return userId === null;
  if (userId === null) return false;
  if (value === 'me') return userId === meId;
  if (/^\d+$/.test(value)) return userId === Number(value);
  const user = account.users.get(userId);
  if (!user) return false;
  return user.email.toLowerCase() === value || user.name.toLowerCase().includes(value);
}

function textOf(ticket: TicketRecord): string {
  return [
    ticket.subject,
    ticket.description,
    ...ticket.comments.map((comment) => comment.body),
    ...ticket.tags,
  ]
    .join(' ')
    .toLowerCase();
}

function fieldMatches(
  account: TicketingAccount,
  ticket: TicketRecord,
  term: Extract<SearchTerm, { kind: 'field' }>,
  meId: number,
): boolean {
  const { key, operator, value } = term;
  switch (key) {
    case 'type':
      if (RESULT_TYPES.has(value)) return value === 'ticket';
      return ticket.type === value; // the language also takes a ticket type here
    case 'ticket_type':
      if (!(TICKET_TYPES as readonly string[]).includes(value))
        throw new SearchQueryError(`Unknown ticket type "${value}".`);
      return ticket.type === value;
    case 'status':
      return compareRank(STATUSES, ticket.status, operator, value);
    case 'priority':
      return compareRank(PRIORITIES, ticket.priority, operator, value);
    case 'assignee':
      return userMatches(account, ticket.assignee_id, value, meId);
    case 'requester':
      return userMatches(account, ticket.requester_id, value, meId);
    case 'tags':
    case 'tag':
      return ticket.tags.includes(value);
    case 'created':
      return compareDate(ticket.created_at, operator, value);
    case 'updated':
      return compareDate(ticket.updated_at, operator, value);
    case 'subject':
      return ticket.subject.toLowerCase().includes(value);
    case 'description':
      return ticket.description.toLowerCase().includes(value);
    case 'external_id':
      return (ticket.external_id ?? '').toLowerCase() === value;
    default:
      // Unknown keys are searched as text, as the provider does.
      return textOf(ticket).includes(`${key}${operator}${value}`);
  }
}

export function ticketMatches(
  account: TicketingAccount,
  ticket: TicketRecord,
  terms: SearchTerm[],
  meId: number,
): boolean {
  return terms.every((term) => {
    let matched: boolean;
    if (term.kind === 'text') {
      const haystack = textOf(ticket);
      matched = term.phrase
        ? haystack.includes(term.value)
        : haystack.split(/[^a-z0-9@._-]+/).some((word) => word.startsWith(term.value));
    } else {
      matched = fieldMatches(account, ticket, term, meId);
    }
    return term.negated ? !matched : matched;
  });
}

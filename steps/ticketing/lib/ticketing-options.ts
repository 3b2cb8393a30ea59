import * as z from 'zod';
import type { HttpClient, OptionItem, OptionsPage, OptionsSource } from '../../../src/kit/index.js';
import { builtOnce, definedOnly, matchingItems, readAnswer } from '../../../src/kit/index.js';
import { readCursorPage } from './cursor-list.js';
import { ticketingPath } from './paths.js';

/**
 * Where the ticketing fields' choices come from (Zendesk Support API v2):
 * people from `users` (by role) and `users/autocomplete`, groups, the
 * account's tags, ticket forms, organizations (`organizations/autocomplete`
 * when searched) and recent tickets through search.
 */

const Person = builtOnce(() =>
  z.object({
    id: z.number(),
    name: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    role: z.string().nullable().optional(),
  }),
);

const personItem = (person: z.infer<ReturnType<typeof Person>>): OptionItem => ({
  value: person.id,
  label: person.name || person.email || `User ${person.id}`,
  description: [person.email, person.role].filter(Boolean).join(' · '),
});

/** What a list read for choices asks: the records under `member` of `path`, read through `item`. */
interface ListRequest<Item extends z.ZodType> {
  path: string;
  member: string;
  item: Item;
  query?: Record<string, string | number | undefined>;
}

interface Paging {
  cursor: string | undefined;
  limit: number;
}

/** A cursor-paged list (`page[size]`, `page[after]`), as the list steps read it; the next cursor when there is more. */
async function cursorList<Item extends z.ZodType>(
  http: HttpClient,
  request: ListRequest<Item>,
  { cursor, limit }: Paging,
): Promise<{ items: z.output<Item>[]; next_cursor?: string }> {
  const page = await readCursorPage(http, { ...request, limit, cursor: cursor || undefined });
  return definedOnly({ items: page.items, next_cursor: page.next_cursor ?? undefined });
}

/**
 * An offset-paged list (`per_page`, `page`: autocomplete, tags, forms,
 * search). Our cursor is the page number; the next one is given when the
 * provider links a next page (`next_page`: only whether there is one matters).
 */
async function offsetList<Item extends z.ZodType>(
  http: HttpClient,
  request: ListRequest<Item>,
  { cursor, limit }: Paging,
): Promise<{ items: z.output<Item>[]; next_cursor?: string }> {
  const response = await http.request({
    method: 'GET',
    path: request.path,
    // An undefined query value is not sent.
    query: { ...request.query, per_page: limit, page: cursor || undefined },
  });
  const page = readAnswer(
    z.object({ [request.member]: z.array(request.item), next_page: z.string().nullish() }),
    response.body,
    `GET ${request.path}`,
  ) as { next_page?: string | null } & Record<string, z.output<Item>[]>;
  const items = page[request.member] ?? [];
  return page.next_page ? { items, next_cursor: String((Number(cursor) || 1) + 1) } : { items };
}

/** People by a name or email prefix (`users/autocomplete`). */
function peopleNamed(http: HttpClient, query: string, paging: Paging) {
  return offsetList(
    http,
    { path: ticketingPath('usersAutocomplete'), member: 'users', item: Person(), query: { name: query } },
    paging,
  );
}

/** Agents and admins: whom a ticket can be assigned to. Searched by name or email. */
export const assigneeOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    if (query) {
      const page = await peopleNamed(http, query, { cursor, limit });
      return { ...page, items: page.items.filter((person) => person.role !== 'end-user').map(personItem) };
    }
    // The provider takes several roles as repeated `role[]` parameters.
    const path = `${ticketingPath('users')}?role[]=agent&role[]=admin`;
    const page = await cursorList(http, { path, member: 'users', item: Person() }, { cursor, limit });
    return { ...page, items: page.items.map(personItem) };
  },
};

/** Anyone, end users included: who asks. Searched by name or email. */
export const requesterOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const page = query
      ? await peopleNamed(http, query, { cursor, limit })
      : await cursorList(
          http,
          { path: ticketingPath('users'), member: 'users', item: Person() },
          { cursor, limit },
        );
    return { ...page, items: page.items.map(personItem) };
  },
};

/** A choice with its description only when the record has one. */
function labelled(value: number, label: string, description: string | null | undefined): OptionItem {
  return { value, label, ...(description ? { description } : {}) };
}

const Group = builtOnce(() =>
  z.object({ id: z.number(), name: z.string(), description: z.string().nullable().optional() }),
);

/** The account's groups; a search filters their names here (the provider has no group search). */
export const groupOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const groups = { path: ticketingPath('groups'), member: 'groups', item: Group() };
    const page = await cursorList(http, groups, { cursor, limit });
    const items = page.items.map((group) => labelled(group.id, group.name, group.description));
    return { ...page, items: matchingItems(items, query) };
  },
};

const Organization = builtOnce(() => z.object({ id: z.number(), name: z.string() }));

/** Organizations; searched by name prefix (`organizations/autocomplete`). */
export const organizationOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const organizations = { member: 'organizations', item: Organization() };
    const page = query
      ? await offsetList(
          http,
          { ...organizations, path: ticketingPath('organizationsAutocomplete'), query: { name: query } },
          { cursor, limit },
        )
      : await cursorList(http, { ...organizations, path: ticketingPath('organizations') }, { cursor, limit });
    return { ...page, items: page.items.map((org) => ({ value: org.id, label: org.name })) };
  },
};

const Tag = builtOnce(() => z.object({ name: z.string(), count: z.number().optional() }));

/** The account's tags, most used first. */
export const tagOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }): Promise<OptionsPage> {
    const page = await offsetList(
      http,
      { path: ticketingPath('tags'), member: 'tags', item: Tag() },
      { cursor, limit },
    );
    const items = page.items.map((tag) => ({
      value: tag.name,
      label: tag.name,
      ...(tag.count === undefined ? {} : { description: `${tag.count} tickets` }),
    }));
    return { ...page, items: matchingItems(items, query) };
  },
};

const Form = builtOnce(() => z.object({ id: z.number(), name: z.string(), active: z.boolean().optional() }));

/** The account's active ticket forms. */
export const ticketFormOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const forms = { path: ticketingPath('ticketForms'), member: 'ticket_forms', item: Form() };
    const page = await offsetList(http, forms, { cursor, limit });
    const items = page.items
      .filter((form) => form.active !== false)
      .map((form) => ({ value: form.id, label: form.name }));
    return { ...page, items: matchingItems(items, query) };
  },
};

const FoundTicket = builtOnce(() =>
  z.object({
    id: z.number(),
    subject: z.string().nullable().optional(),
    status: z.string().optional(),
  }),
);

/** Recent tickets, most recently updated first; a search narrows them with the query language. */
export const ticketOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const search = {
      path: ticketingPath('search'),
      member: 'results',
      item: FoundTicket(),
      query: {
        query: query ? `type:ticket ${query}` : 'type:ticket',
        sort_by: 'updated_at',
        sort_order: 'desc',
      },
    };
    const page = await offsetList(http, search, { cursor, limit });
    const items = page.items.map((ticket) => ({
      value: ticket.id,
      label: `#${ticket.id} ${ticket.subject ?? ''}`.trim(),
      ...(ticket.status ? { description: ticket.status } : {}),
    }));
    return { ...page, items };
  },
};

const Field = builtOnce(() =>
  z.object({
    id: z.number(),
    title: z.string(),
    type: z.string(),
    active: z.boolean().optional(),
  }),
);

/** The account's ticket fields, system and custom, with their type. */
export const ticketFieldOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const fields = { path: ticketingPath('ticketFields'), member: 'ticket_fields', item: Field() };
    const page = await cursorList(http, fields, { cursor, limit });
    const items = page.items.map((field) => ({
      value: field.id,
      label: field.title,
      description: field.type,
    }));
    return { ...page, items: matchingItems(items, query) };
  },
};

const ViewSummary = builtOnce(() =>
  z.object({
    id: z.number(),
    title: z.string(),
    description: z.string().nullable().optional(),
  }),
);

/** The active views the connection's user can see, in the account's order (`views/active`). */
export const viewOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const views = { path: ticketingPath('activeViews'), member: 'views', item: ViewSummary() };
    const page = await offsetList(http, views, { cursor, limit });
    const items = page.items.map((view) => labelled(view.id, view.title, view.description));
    return { ...page, items: matchingItems(items, query) };
  },
};

const Held = builtOnce(() =>
  z.object({
    id: z.number(),
    subject: z.string().nullable().optional(),
    cause: z.string().nullable().optional(),
  }),
);

/** The suspended tickets, labelled by subject with the cause they were held for. */
export const suspendedTicketOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const held = { path: ticketingPath('suspendedTickets'), member: 'suspended_tickets', item: Held() };
    const page = await cursorList(http, held, { cursor, limit });
    const items = page.items.map((record) =>
      labelled(record.id, record.subject || `Suspended ${record.id}`, record.cause),
    );
    return { ...page, items: matchingItems(items, query) };
  },
};

const MacroSummary = builtOnce(() =>
  z.object({ id: z.number(), title: z.string(), active: z.boolean().optional() }),
);

/** The active macros by title (`macros?active=true`). */
export const macroOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const macros = {
      path: ticketingPath('macros'),
      member: 'macros',
      item: MacroSummary(),
      query: { active: 'true' },
    };
    const page = await offsetList(http, macros, { cursor, limit });
    const items = page.items.map((macro) => labelled(macro.id, macro.title, undefined));
    return { ...page, items: matchingItems(items, query) };
  },
};

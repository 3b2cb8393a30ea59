import * as z from 'zod';
import type { HttpClient, OptionItem, OptionsPage, OptionsSource } from '../../../src/kit/index.js';
import { matchingItems } from '../../../src/kit/index.js';
import { ticketingPath } from './paths.js';

/**
 * Where the ticketing fields' choices come from (Zendesk Support API v2):
 * people from `users` (by role) and `users/autocomplete`, groups, the
 * account's tags, ticket forms, organizations (`organizations/autocomplete`
 * when searched) and recent tickets through search.
 */

const Person = z.object({
  id: z.number(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  role: z.string().nullable().optional(),
});
const CursorMeta = z.object({ has_more: z.boolean(), after_cursor: z.string().nullable().optional() });
/** An offset page links its next page; only whether there is one matters here. */
const OffsetLinks = { next_page: z.string().nullable().optional() };

const personItem = (person: z.infer<typeof Person>): OptionItem => ({
  value: person.id,
  label: person.name || person.email || `User ${person.id}`,
  description: [person.email, person.role].filter(Boolean).join(' · '),
});

/** The next offset page's cursor (its page number), when the provider links one. */
const nextPage = (cursor: string | undefined, next: string | null | undefined) =>
  next ? { next_cursor: String((Number(cursor) || 1) + 1) } : {};

/** A cursor-paged list: `page[size]`, `page[after]`, and the next cursor when there is more. */
async function cursorList<Item extends z.ZodType>(
  http: HttpClient,
  path: string,
  member: string,
  item: Item,
  paging: { cursor: string | undefined; limit: number },
): Promise<{ items: z.output<Item>[]; next_cursor?: string }> {
  const response = await http.request({
    method: 'GET',
    path,
    query: { 'page[size]': paging.limit, 'page[after]': paging.cursor || undefined },
  });
  const page = z.object({ [member]: z.array(item), meta: CursorMeta }).parse(response.body);
  const meta = page.meta as z.infer<typeof CursorMeta>;
  return {
    items: page[member] as z.output<Item>[],
    ...(meta.has_more && meta.after_cursor ? { next_cursor: meta.after_cursor } : {}),
  };
}

/** People by a name or email prefix (`users/autocomplete`), offset-paged. */
async function peopleNamed(http: HttpClient, query: string, cursor: string | undefined, limit: number) {
  const response = await http.request({
    method: 'GET',
    path: ticketingPath('usersAutocomplete'),
    query: { name: query, per_page: limit, page: cursor || undefined },
  });
  const page = z.object({ users: z.array(Person), ...OffsetLinks }).parse(response.body);
  return { people: page.users, more: nextPage(cursor, page.next_page) };
}

/** Agents and admins: whom a ticket can be assigned to. Searched by name or email. */
export const assigneeOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    if (query) {
      const { people, more } = await peopleNamed(http, query, cursor, limit);
      return { items: people.filter((person) => person.role !== 'end-user').map(personItem), ...more };
    }
    // The provider takes several roles as repeated `role[]` parameters.
    const page = await cursorList(
      http,
      `${ticketingPath('users')}?role[]=agent&role[]=admin`,
      'users',
      Person,
      {
        cursor,
        limit,
      },
    );
    return { ...page, items: page.items.map(personItem) };
  },
};

/** Anyone, end users included: who asks. Searched by name or email. */
export const requesterOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    if (query) {
      const { people, more } = await peopleNamed(http, query, cursor, limit);
      return { items: people.map(personItem), ...more };
    }
    const page = await cursorList(http, ticketingPath('users'), 'users', Person, { cursor, limit });
    return { ...page, items: page.items.map(personItem) };
  },
};

const Group = z.object({ id: z.number(), name: z.string(), description: z.string().nullable().optional() });

/** The account's groups; a search filters their names here (the provider has no group search). */
export const groupOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const page = await cursorList(http, ticketingPath('groups'), 'groups', Group, { cursor, limit });
    const items = page.items.map((group) => ({
      value: group.id,
      label: group.name,
      ...(group.description ? { description: group.description } : {}),
    }));
    return { ...page, items: matchingItems(items, query) };
  },
};

const Organization = z.object({ id: z.number(), name: z.string() });

/** Organizations; searched by name prefix (`organizations/autocomplete`). */
export const organizationOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const item = (org: z.infer<typeof Organization>) => ({ value: org.id, label: org.name });
    if (!query) {
      const page = await cursorList(http, ticketingPath('organizations'), 'organizations', Organization, {
        cursor,
        limit,
      });
      return { ...page, items: page.items.map(item) };
    }
    const response = await http.request({
      method: 'GET',
      path: ticketingPath('organizationsAutocomplete'),
      query: { name: query, per_page: limit, page: cursor || undefined },
    });
    const page = z.object({ organizations: z.array(Organization), ...OffsetLinks }).parse(response.body);
    return { items: page.organizations.map(item), ...nextPage(cursor, page.next_page) };
  },
};

const Tag = z.object({ name: z.string(), count: z.number().optional() });

/** The account's tags, most used first. */
export const tagOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }): Promise<OptionsPage> {
    const response = await http.request({
      method: 'GET',
      path: ticketingPath('tags'),
      query: { per_page: limit, page: cursor || undefined },
    });
    const page = z.object({ tags: z.array(Tag), ...OffsetLinks }).parse(response.body);
    const items = page.tags.map((tag) => ({
      value: tag.name,
      label: tag.name,
      ...(tag.count === undefined ? {} : { description: `${tag.count} tickets` }),
    }));
    return { items: matchingItems(items, query), ...nextPage(cursor, page.next_page) };
  },
};

const Form = z.object({ id: z.number(), name: z.string(), active: z.boolean().optional() });

/** The account's active ticket forms. */
export const ticketFormOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit }) {
    const response = await http.request({
      method: 'GET',
      path: ticketingPath('ticketForms'),
      query: { per_page: limit, page: cursor || undefined },
    });
    const page = z.object({ ticket_forms: z.array(Form), ...OffsetLinks }).parse(response.body);
    const items = page.ticket_forms
      .filter((form) => form.active !== false)
      .map((form) => ({ value: form.id, label: form.name }));
    return { items: matchingItems(items, query), ...nextPage(cursor, page.next_page) };
  },
};

const FoundTicket = z.object({
  id: z.number(),
  subject: z.string().nullable().optional(),
  status: z.string().optional(),
});

/** Recent tickets, most recently updated first; a search narrows them with the query language. */
export const ticketOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const response = await http.request({
      method: 'GET',
      path: ticketingPath('search'),
      query: {
        query: query ? `type:ticket ${query}` : 'type:ticket',
        sort_by: 'updated_at',
        sort_order: 'desc',
        per_page: limit,
        page: cursor || undefined,
      },
    });
    const page = z.object({ results: z.array(FoundTicket), ...OffsetLinks }).parse(response.body);
    return {
      items: page.results.map((ticket) => ({
        value: ticket.id,
        label: `#${ticket.id} ${ticket.subject ?? ''}`.trim(),
        ...(ticket.status ? { description: ticket.status } : {}),
      })),
      ...nextPage(cursor, page.next_page),
    };
  },
};

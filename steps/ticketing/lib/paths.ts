/** Every provider path of the integration, in one table, so it can be re-pointed. */
export const ticketingPaths = {
  tickets: '/api/v2/tickets.json',
  ticket: '/api/v2/tickets/{id}.json',
  ticketComments: '/api/v2/tickets/{id}/comments.json',
  ticketTags: '/api/v2/tickets/{id}/tags.json',
  users: '/api/v2/users.json',
  usersSearch: '/api/v2/users/search.json',
  usersAutocomplete: '/api/v2/users/autocomplete.json',
  organizationsAutocomplete: '/api/v2/organizations/autocomplete.json',
  groups: '/api/v2/groups.json',
  group: '/api/v2/groups/{id}.json',
  tags: '/api/v2/tags.json',
  ticketForms: '/api/v2/ticket_forms.json',
  ticketFields: '/api/v2/ticket_fields.json',
  ticketField: '/api/v2/ticket_fields/{id}.json',
  ticketForm: '/api/v2/ticket_forms/{id}.json',
  activeViews: '/api/v2/views/active.json',
  viewTickets: '/api/v2/views/{id}/tickets.json',
  macros: '/api/v2/macros.json',
  macro: '/api/v2/macros/{id}.json',
  macrosSearch: '/api/v2/macros/search.json',
  macroCategories: '/api/v2/macros/categories.json',
  suspendedTickets: '/api/v2/suspended_tickets.json',
  suspendedTicket: '/api/v2/suspended_tickets/{id}.json',
  recoverSuspendedTicket: '/api/v2/suspended_tickets/{id}/recover.json',
  user: '/api/v2/users/{id}.json',
  me: '/api/v2/users/me.json',
  organizations: '/api/v2/organizations.json',
  organization: '/api/v2/organizations/{id}.json',
  search: '/api/v2/search.json',
  searchExport: '/api/v2/search/export.json',
  uploads: '/api/v2/uploads.json',
  /** RevokeOAuthToken on `current`: the bearer token of the request itself. */
  revokeCurrentToken: '/api/v2/oauth/tokens/current.json',
} as const;

/** What a macro would change on a ticket (Show Ticket After Changes): both ids already validated. */
export function macroApplyPath(ticketId: number, macroId: number): string {
  return `/api/v2/tickets/${ticketId}/macros/${macroId}/apply.json`;
}

/** Fills `{id}` in a path with a value that is already a validated positive integer. */
export function ticketingPath(name: keyof typeof ticketingPaths, id?: number): string {
  return ticketingPaths[name].replace('{id}', String(id ?? ''));
}

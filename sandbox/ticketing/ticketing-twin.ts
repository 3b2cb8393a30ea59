import * as z from 'zod';
import type { TwinControl } from '../twin-control.js';
import type { TicketingAccount } from './ticketing-account.js';
import { PRIORITIES, STATUSES, TICKET_TYPES, type TicketRecord } from './ticketing-state.js';

const TicketSeed = z.strictObject({
  subject: z.string().min(1).max(1000).describe('Subject line.'),
  description: z.string().min(1).max(65_000).describe('The first comment, by the requester.'),
  status: z.enum(STATUSES).default('new'),
  priority: z.enum(PRIORITIES).nullable().default(null),
  type: z.enum(TICKET_TYPES).nullable().default(null),
  tags: z.array(z.string().min(1)).default([]),
  external_id: z.string().min(1).nullable().default(null),
  requester_email: z
    .email()
    .default('riley@customer.example')
    .describe('An existing user (the seed has riley@customer.example, an end user).'),
  assignee_email: z.email().nullable().default(null).describe('An existing agent or admin, or null.'),
  group: z.string().min(1).nullable().default(null).describe('A group by name, or null.'),
});

/** What a scenario adds to the ticketing twin's account `acme` before the agent starts. */
export const TicketingTwinSeed = z.strictObject({
  clear_tickets: z
    .boolean()
    .default(false)
    .describe("Remove the account's three default tickets first, so ids start where the seed's start."),
  groups: z
    .array(z.string().min(1))
    .default([])
    .describe('More groups by name, beside Support, Billing, Escalations, Onboarding.'),
  tickets: z.array(TicketSeed).default([]).describe('Tickets, created in order (ids follow on).'),
});

function seedGroup(account: TicketingAccount, name: string): void {
  if ([...account.groups.values()].some((group) => group.name === name)) return;
  const id = 360_000 + account.groups.size + 1;
  const at = account.timestamp();
  account.groups.set(id, {
    id,
    name,
    description: `${name} team`,
    default: false,
    deleted: false,
    is_public: true,
    created_at: at,
    updated_at: at,
  });
}

function userId(account: TicketingAccount, email: string): number {
  const user = account.userByEmail(email);
  if (!user) throw new Error(`the ticketing twin has no user ${email}`);
  return user.id;
}

function seedTicket(account: TicketingAccount, seed: z.infer<typeof TicketSeed>): void {
  const requester = account.userByEmail(seed.requester_email);
  if (!requester) throw new Error(`the ticketing twin has no user ${seed.requester_email}`);
  const group =
    seed.group === null ? undefined : [...account.groups.values()].find((g) => g.name === seed.group);
  if (seed.group !== null && !group) throw new Error(`the ticketing twin has no group ${seed.group}`);
  const at = account.timestamp();
  const ticket: TicketRecord = {
    id: account.newId('ticket'),
    external_id: seed.external_id,
    type: seed.type,
    subject: seed.subject,
    raw_subject: seed.subject,
    description: seed.description,
    priority: seed.priority,
    status: seed.status,
    requester_id: requester.id,
    submitter_id: requester.id,
    assignee_id: seed.assignee_email === null ? null : userId(account, seed.assignee_email),
    organization_id: requester.organization_id,
    group_id: group?.id ?? null,
    due_at: null,
    collaborator_ids: [],
    follower_ids: [],
    tags: seed.tags,
    custom_fields: [],
    via: { channel: 'web' },
    created_at: at,
    updated_at: at,
    comments: [],
  };
  account.addComment(ticket, requester.id, seed.description, true);
  account.tickets.set(ticket.id, ticket);
}

function seedAccount(target: TicketingAccount, seed: z.infer<typeof TicketingTwinSeed>): void {
  if (seed.clear_tickets) target.tickets.clear();
  for (const name of seed.groups) seedGroup(target, name);
  for (const ticket of seed.tickets) seedTicket(target, ticket);
}

/** One ticket as a check reads it: names resolved (group, assignee, requester), comments counted. */
function ticketState(account: TicketingAccount, ticket: TicketRecord) {
  const email = (id: number | null) => (id === null ? null : (account.users.get(id)?.email ?? null));
  return {
    id: ticket.id,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    type: ticket.type,
    tags: ticket.tags,
    external_id: ticket.external_id,
    requester_email: email(ticket.requester_id),
    assignee_email: email(ticket.assignee_id),
    group: ticket.group_id === null ? null : (account.groups.get(ticket.group_id)?.name ?? null),
    comments: ticket.comments.length,
    public_comments: ticket.comments.filter((comment) => comment.public).length,
  };
}

/** The ticketing twin's scenario face, over one account (the sandbox connection's, `acme`). */
export function ticketingTwin(
  account: () => TicketingAccount,
  tokens: { expireAll(): number; revokeAccount(account: string): void },
): TwinControl {
  return {
    seedSchema: TicketingTwinSeed,
    seed: (raw) => seedAccount(account(), TicketingTwinSeed.parse(raw)),
    state() {
      const target = account();
      const tickets = [...target.tickets.values()].map((ticket) => ticketState(target, ticket));
      return {
        tickets,
        deleted_ticket_ids: [...target.deletedTicketIds],
        groups: [...target.groups.values()].map((group) => ({ id: group.id, name: group.name })),
      };
    },
    expireTokens: () => tokens.expireAll(),
    revokeGrants: () => tokens.revokeAccount(account().subdomain),
  };
}

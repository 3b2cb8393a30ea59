import type { TicketingAccount } from './ticketing-account.js';
import { seedTicketingDirectory } from './ticketing-directory-seed.js';
import type { TicketRecord, UserRecord } from './ticketing-state.js';

/**
 * What every new sandbox account starts with: organization Acme, Ada
 * (admin, user 1, whom the sandbox tokens belong to), Sam (agent), Riley
 * (end user, requester) and three tickets; then the directory
 * (ticketing-directory-seed.ts): more people, organizations, groups, forms and fields.
 */
export function seedTicketingAccount(account: TicketingAccount): void {
  const org = {
    id: account.newId('organization'),
    name: 'Acme Pty Ltd',
    domain_names: ['acme.example'],
    created_at: account.timestamp(),
  };
  account.organizations.set(org.id, org);
  const admin = account.addUser({ name: 'Ada Admin', email: 'ada@acme.example', role: 'admin' });
  const agent = account.addUser({ name: 'Sam Agent', email: 'sam@acme.example', role: 'agent' });
  const requester = account.addUser({
    name: 'Riley Requester',
    email: 'riley@customer.example',
    role: 'end-user',
    organization_id: org.id,
  });
  const seeds: [string, string, TicketRecord['priority'], TicketRecord['status'], string[], number | null][] =
    [
      [
        'Cannot log in',
        'The login page says my password is wrong after the reset.',
        'high',
        'open',
        ['login'],
        agent.id,
      ],
      [
        'Invoice shows the wrong amount',
        'Invoice 1042 charges twice for the same seat.',
        'normal',
        'pending',
        ['billing'],
        admin.id,
      ],
      [
        'Feature request: dark mode',
        'Please add a dark theme to the dashboard.',
        'low',
        'new',
        ['feature'],
        null,
      ],
    ];
  for (const [subject, description, priority, status, tags, assigneeId] of seeds) {
    addTicket(account, requester, { subject, description, priority, status, tags, assigneeId });
  }
  seedTicketingDirectory(account);
}

interface TicketSeed {
  subject: string;
  description: string;
  priority: TicketRecord['priority'];
  status: TicketRecord['status'];
  tags: string[];
  assigneeId: number | null;
}

/** One ticket with its first comment, asked by `requester` for their organization. */
function addTicket(account: TicketingAccount, requester: UserRecord, seed: TicketSeed): void {
  const { subject, description, priority, status, tags, assigneeId } = seed;
  const at = account.timestamp();
  const ticket: TicketRecord = {
    id: account.newId('ticket'),
    external_id: null,
    type: 'question',
    subject,
    raw_subject: subject,
    description,
    priority,
    status,
    requester_id: requester.id,
    submitter_id: requester.id,
    assignee_id: assigneeId,
    organization_id: requester.organization_id,
    group_id: null,
    due_at: null,
    collaborator_ids: [],
    follower_ids: [],
    tags,
    custom_fields: [],
    via: { channel: 'web' },
    created_at: at,
    updated_at: at,
    comments: [],
  };
  account.addComment(ticket, requester.id, description, true);
  account.tickets.set(ticket.id, ticket);
}

/**
 * Adds tickets until the account holds `count`, for volume runs (the
 * benchmark pages through 20,000): the seed's three tickets repeated with
 * numbered subjects, each with its one comment.
 */
export function seedTickets(account: TicketingAccount, count: number): void {
  const requester = account.userByEmail('riley@customer.example');
  if (!requester) throw new Error('the account has no seeded requester to ask the tickets');
  const statuses = ['open', 'pending', 'new', 'solved'] as const;
  for (let index = account.tickets.size; index < count; index += 1) {
    addTicket(account, requester, {
      subject: `Seeded ticket ${index + 1}`,
      description: `Ticket ${index + 1} of a volume run: the printer on floor ${index % 9} jams.`,
      priority: 'normal',
      status: statuses[index % statuses.length]!,
      tags: ['seeded'],
      assigneeId: null,
    });
  }
}

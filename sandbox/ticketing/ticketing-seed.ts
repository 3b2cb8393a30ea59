import type { TicketingAccount, TicketRecord } from './ticketing-state.js';

/**
 * What every new sandbox account starts with: organization Acme, Ada
 * (admin, user 1, whom the sandbox tokens belong to), Sam (agent), Riley
 * (end user, requester) and three tickets.
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
      organization_id: org.id,
      group_id: null,
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
}

import type { TicketingAccount } from './ticketing-account.js';
import type { TicketFieldRecord, TicketFieldType, UserRecord, ViewCondition } from './ticketing-state.js';

/**
 * The rest of a sandbox account's directory, seeded after the first users
 * and tickets so their ids stay: dozens of people with roles, several
 * organizations and groups, and a ticket form with a custom field of each
 * type. Choices fetched from the account (assignees, groups, custom field
 * values) are worth a dropdown only when there are enough of them.
 */
export function seedTicketingDirectory(account: TicketingAccount): void {
  const organizations = [
    'Globex Corporation',
    'Initech',
    'Umbrella Health',
    'Stark Logistics',
    'Wayne Foods',
  ];
  for (const name of organizations) {
    const id = account.newId('organization');
    const domain = `${name.split(' ')[0]!.toLowerCase()}.example`;
    account.organizations.set(id, { id, name, domain_names: [domain], created_at: account.timestamp() });
  }
  seedPeople(account);
  const groups = ['Support', 'Billing', 'Escalations', 'Onboarding'];
  groups.forEach((name, index) => {
    const id = 360_000 + index + 1;
    const at = account.timestamp();
    account.groups.set(id, {
      id,
      name,
      description: `${name} team`,
      default: index === 0,
      deleted: false,
      is_public: true,
      created_at: at,
      updated_at: at,
    });
  });
  seedFieldsAndForms(account);
  seedViews(account);
  seedSuspendedTickets(account);
  seedMacros(account);
}

const FIRST_NAMES = [
  'Alex',
  'Blair',
  'Casey',
  'Devon',
  'Emery',
  'Finley',
  'Harper',
  'Jordan',
  'Kai',
  'Logan',
];
const LAST_NAMES = ['Nguyen', 'Smith', 'Patel', 'Garcia', 'Kowalski', 'Okafor'];

/** Three more admins, nine more agents and twenty more end users, spread across the organizations. */
function seedPeople(account: TicketingAccount): void {
  const roles: [UserRecord['role'], number][] = [
    ['admin', 3],
    ['agent', 9],
    ['end-user', 20],
  ];
  const orgIds = [...account.organizations.keys()];
  let index = 0;
  for (const [role, count] of roles) {
    for (let made = 0; made < count; made += 1, index += 1) {
      const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
      const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
      const staff = role !== 'end-user';
      account.addUser({
        name: `${first} ${last}`,
        email: `${first}.${last}${index}@${staff ? 'acme.example' : 'customer.example'}`.toLowerCase(),
        role,
        organization_id: staff ? null : (orgIds[index % orgIds.length] ?? null),
      });
    }
  }
}

type FieldSeed = [TicketFieldType, string, string[]?];

/** The system fields every account has, then one custom field of each type. */
const FIELDS: FieldSeed[] = [
  ['subject', 'Subject'],
  ['description', 'Description'],
  ['status', 'Status'],
  ['priority', 'Priority'],
  ['text', 'Order number'],
  ['textarea', 'Steps to reproduce'],
  ['integer', 'Seats'],
  ['decimal', 'Refund amount'],
  ['checkbox', 'VIP customer'],
  ['date', 'Renewal date'],
  ['tagger', 'Product area', ['Billing portal', 'Mobile app', 'Public API', 'Web dashboard']],
  ['multiselect', 'Affected platforms', ['Android', 'iOS', 'Linux', 'macOS', 'Windows']],
];

const SYSTEM: readonly TicketFieldType[] = ['subject', 'description', 'status', 'priority'];

/** A tag as the provider makes one from a title: lower case, underscores. */
const tagOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '_');

function seedFieldsAndForms(account: TicketingAccount): void {
  const at = account.timestamp();
  let optionId = 1_000_000;
  FIELDS.forEach(([type, title, choices], index) => {
    const id = 900_000 + index + 1;
    const field: TicketFieldRecord = {
      id,
      type,
      title,
      description: `${title} of the ticket`,
      active: true,
      required: false,
      removable: !SYSTEM.includes(type),
      position: index,
      tag: type === 'checkbox' ? tagOf(title) : null,
      created_at: at,
      updated_at: at,
    };
    if (choices) {
      field.custom_field_options = choices.map((name) => {
        optionId += 1;
        return { id: optionId, name, value: tagOf(name), default: false };
      });
    }
    account.ticketFields.set(id, field);
  });
  const fieldIds = [...account.ticketFields.keys()];
  const forms: [string, number[]][] = [
    ['Default ticket form', fieldIds.slice(0, SYSTEM.length)],
    ['Technical support', fieldIds],
    ['Billing request', [...fieldIds.slice(0, SYSTEM.length), 900_005, 900_008, 900_011]],
  ];
  forms.forEach(([name, ids], index) => {
    const id = 5_000 + index + 1;
    account.ticketForms.set(id, {
      id,
      name,
      display_name: name,
      active: true,
      default: index === 0,
      end_user_visible: true,
      position: index,
      ticket_field_ids: ids,
      created_at: at,
      updated_at: at,
    });
  });
}

/** Four views: three active (one the default), one switched off so the active list has something to leave out. */
function seedViews(account: TicketingAccount): void {
  const unsolved: ViewCondition = { field: 'status', operator: 'less_than', value: 'solved' };
  const views: [string, ViewCondition[], boolean][] = [
    ['Open and new tickets', [{ field: 'status', operator: 'less_than', value: 'pending' }], true],
    ['Urgent unsolved tickets', [unsolved, { field: 'priority', operator: 'is', value: 'urgent' }], true],
    ['Support queue', [unsolved, { field: 'group_id', operator: 'is', value: '360001' }], true],
    ['Solved tickets', [{ field: 'status', operator: 'is', value: 'solved' }], false],
  ];
  views.forEach(([title, all, active], index) => {
    const id = 25_001 + index;
    const at = account.timestamp();
    account.views.set(id, {
      id,
      title,
      description: `${title}, oldest first`,
      active,
      default: index === 0,
      position: index + 1,
      conditions: { all, any: [] },
      execution: { sort: { id: 'created_at', order: 'asc' } },
      restriction: null,
      created_at: at,
      updated_at: at,
    });
  });
}

/** Three held-back emails, each with the cause the provider gives. */
function seedSuspendedTickets(account: TicketingAccount): void {
  const held: [string, string, string, number, string][] = [
    ['Out of office', 'I am away until Monday.', 'Automated response mail', 2, 'bounce@mailer.example'],
    ['WIN A PRIZE NOW', 'Click here to claim your prize.', 'Detected as spam', 0, 'promo@spam.example'],
    [
      'Refund for order 1182',
      'Please refund my last order.',
      'Received from support address',
      5,
      'pat@customer.example',
    ],
  ];
  held.forEach(([subject, content, cause, causeId, from], index) => {
    const id = 8_000_001 + index;
    const at = account.timestamp();
    const name = from.split('@')[0]!;
    account.suspendedTickets.set(id, {
      id,
      subject,
      content,
      cause,
      cause_id: causeId,
      author: { name, email: from },
      recipient: `support@${account.subdomain}.example`,
      message_id: `<${id}@${from.split('@')[1]}>`,
      attachments: [],
      error_messages: null,
      via: {
        channel: 'email',
        source: {
          from: { address: from, name },
          to: { address: `support@${account.subdomain}.example`, name: 'Support' },
          rel: null,
        },
      },
      created_at: at,
      updated_at: at,
    });
  });
}

/** Three macros, categories written in their titles as the provider does (`Category::Name`); one switched off. */
function seedMacros(account: TicketingAccount): void {
  const macros: [string, { field: string; value: string }[], boolean][] = [
    [
      'Billing::Refund issued',
      [
        { field: 'status', value: 'solved' },
        { field: 'comment_value', value: 'Your refund is on its way.' },
      ],
      true,
    ],
    [
      'Support::Escalate',
      [
        { field: 'priority', value: 'urgent' },
        { field: 'group_id', value: '360003' },
        { field: 'assignee_id', value: 'current_user' },
      ],
      true,
    ],
    ['Support::Old greeting', [{ field: 'comment_value', value: 'Hello!' }], false],
  ];
  macros.forEach(([title, actions, active], index) => {
    const id = 360_111_001 + index;
    const at = account.timestamp();
    account.macros.set(id, {
      id,
      title,
      description: null,
      active,
      default: false,
      position: index + 1,
      actions,
      restriction: null,
      created_at: at,
      updated_at: at,
    });
  });
}

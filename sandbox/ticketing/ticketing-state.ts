/** In-memory records of one emulated ticketing account (one subdomain). */

export const STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_TYPES = ['problem', 'incident', 'question', 'task'] as const;

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: 'end-user' | 'agent' | 'admin';
  organization_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrganizationRecord {
  id: number;
  name: string;
  domain_names: string[];
  created_at: string;
}

export interface CommentRecord {
  id: number;
  type: 'Comment';
  author_id: number;
  body: string;
  html_body: string;
  public: boolean;
  created_at: string;
}

export interface TicketRecord {
  id: number;
  external_id: string | null;
  type: (typeof TICKET_TYPES)[number] | null;
  subject: string;
  raw_subject: string;
  description: string;
  priority: (typeof PRIORITIES)[number] | null;
  status: (typeof STATUSES)[number];
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  organization_id: number | null;
  group_id: number | null;
  collaborator_ids: number[];
  follower_ids: number[];
  tags: string[];
  custom_fields: { id: number; value: unknown }[];
  via: { channel: string };
  created_at: string;
  updated_at: string;
  comments: CommentRecord[];
}

export class TicketingAccount {
  readonly users = new Map<number, UserRecord>();
  readonly organizations = new Map<number, OrganizationRecord>();
  readonly tickets = new Map<number, TicketRecord>();
  private nextId = { user: 1, organization: 1, ticket: 1, comment: 1 };

  constructor(
    readonly subdomain: string,
    private readonly now: () => string,
  ) {
    this.seed();
  }

  newId(kind: keyof TicketingAccount['nextId']): number {
    const id = this.nextId[kind];
    this.nextId[kind] += 1;
    return id;
  }

  timestamp(): string {
    return this.now();
  }

  addUser(
    fields: Pick<UserRecord, 'name' | 'email' | 'role'> & { organization_id?: number | null },
  ): UserRecord {
    const at = this.now();
    const user: UserRecord = {
      id: this.newId('user'),
      organization_id: null,
      ...fields,
      created_at: at,
      updated_at: at,
    };
    this.users.set(user.id, user);
    return user;
  }

  userByEmail(email: string): UserRecord | undefined {
    const wanted = email.toLowerCase();
    return [...this.users.values()].find((user) => user.email.toLowerCase() === wanted);
  }

  addComment(ticket: TicketRecord, authorId: number, body: string, isPublic: boolean): CommentRecord {
    const comment: CommentRecord = {
      id: this.newId('comment'),
      type: 'Comment',
      author_id: authorId,
      body,
      html_body: `<div class="zd-comment"><p>${body.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p></div>`,
      public: isPublic,
      created_at: this.now(),
    };
    ticket.comments.push(comment);
    return comment;
  }

  private seed(): void {
    const org = {
      id: this.newId('organization'),
      name: 'Acme Pty Ltd',
      domain_names: ['acme.example'],
      created_at: this.now(),
    };
    this.organizations.set(org.id, org);
    const admin = this.addUser({ name: 'Ada Admin', email: 'ada@acme.example', role: 'admin' });
    const agent = this.addUser({ name: 'Sam Agent', email: 'sam@acme.example', role: 'agent' });
    const requester = this.addUser({
      name: 'Riley Requester',
      email: 'riley@customer.example',
      role: 'end-user',
      organization_id: org.id,
    });
    const seeds: [
      string,
      string,
      TicketRecord['priority'],
      TicketRecord['status'],
      string[],
      number | null,
    ][] = [
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
      const at = this.now();
      const ticket: TicketRecord = {
        id: this.newId('ticket'),
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
      this.addComment(ticket, requester.id, description, true);
      this.tickets.set(ticket.id, ticket);
    }
  }
}

import type { TicketChange } from './ticket-events.js';
import type { TicketingTrigger, TicketingWebhook } from './ticketing-hooks.js';
import type {
  AttachmentRecord,
  CommentRecord,
  GroupRecord,
  MacroRecord,
  OrganizationRecord,
  SuspendedTicketRecord,
  TicketFieldRecord,
  TicketFormRecord,
  TicketingPlan,
  TicketRecord,
  UserRecord,
  ViewRecord,
} from './ticketing-state.js';

/**
 * One emulated ticketing account (one subdomain): its records, id counters
 * and clock. Empty until seeded: the emulator seeds each new account from
 * ticketing-seed.ts.
 */
export class TicketingAccount {
  readonly users = new Map<number, UserRecord>();
  readonly organizations = new Map<number, OrganizationRecord>();
  readonly tickets = new Map<number, TicketRecord>();
  readonly groups = new Map<number, GroupRecord>();
  readonly ticketFields = new Map<number, TicketFieldRecord>();
  readonly ticketForms = new Map<number, TicketFormRecord>();
  readonly views = new Map<number, ViewRecord>();
  readonly macros = new Map<number, MacroRecord>();
  readonly suspendedTickets = new Map<number, SuspendedTicketRecord>();
  readonly webhooks = new Map<string, TicketingWebhook>();
  readonly triggers = new Map<number, TicketingTrigger>();
  /** Upload tokens (`POST /api/v2/uploads`) not yet used by a comment, with their files. */
  readonly uploads = new Map<string, { attachments: AttachmentRecord[]; expiresAt: number }>();
  /** Every uploaded file's content, by the token in its content_url. */
  readonly files = new Map<string, { attachment: AttachmentRecord; bytes: Buffer }>();
  /** Tickets deleted through the API, oldest first, so a scenario can check that nothing was. */
  readonly deletedTicketIds: number[] = [];
  plan: TicketingPlan = 'enterprise';
  /** The provider's numeric account id, stable per subdomain (event bodies carry it). */
  readonly accountId: number;
  private nextId = { user: 1, organization: 1, ticket: 1, comment: 1, trigger: 1, attachment: 1 };

  constructor(
    readonly subdomain: string,
    private readonly now: () => string,
    /** Hears every ticket change (the emulator sends webhooks from it). */
    private readonly onChange: (account: TicketingAccount, change: TicketChange) => void = () => undefined,
  ) {
    this.accountId =
      10_000_000 + [...subdomain].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 89_999_999, 7);
  }

  /** A copy of a ticket before a change, to tell what changed. */
  snapshot(ticket: TicketRecord): TicketRecord {
    return structuredClone({ ...ticket, comments: [] });
  }

  /** Reports a change made through any route, so webhooks and triggers hear of it. */
  changed(change: TicketChange): void {
    this.onChange(this, change);
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
    fields: Pick<UserRecord, 'name' | 'email' | 'role'> &
      Partial<Omit<UserRecord, 'id' | 'name' | 'email' | 'role' | 'created_at' | 'updated_at'>>,
  ): UserRecord {
    const at = this.now();
    const user: UserRecord = {
      id: this.newId('user'),
      organization_id: null,
      external_id: null,
      phone: null,
      time_zone: 'Sydney',
      notes: '',
      tags: [],
      suspended: false,
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

  addComment(
    ticket: TicketRecord,
    authorId: number,
    body: string,
    isPublic: boolean,
    attachments: AttachmentRecord[] = [],
  ): CommentRecord {
    const comment: CommentRecord = {
      attachments,
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
}

import type { TicketChange } from './ticket-events.js';
import type { TicketingTrigger, TicketingWebhook } from './ticketing-hooks.js';
import { seedTicketingAccount } from './ticketing-seed.js';

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

/** A file as the provider describes it (AttachmentObject). */
export interface AttachmentRecord {
  id: number;
  file_name: string;
  content_url: string;
  content_type: string;
  size: number;
  thumbnails: unknown[];
}

export interface CommentRecord {
  id: number;
  type: 'Comment';
  author_id: number;
  body: string;
  html_body: string;
  public: boolean;
  attachments: AttachmentRecord[];
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

/**
 * The provider's plans, lowest first. The sandbox lets `team` lack webhooks
 * and triggers (403 FeatureNotAvailable), the answer the steps read as a
 * plan limit.
 */
export const TICKETING_PLANS = ['team', 'professional', 'enterprise'] as const;
export type TicketingPlan = (typeof TICKETING_PLANS)[number];

export class TicketingAccount {
  readonly users = new Map<number, UserRecord>();
  readonly organizations = new Map<number, OrganizationRecord>();
  readonly tickets = new Map<number, TicketRecord>();
  readonly webhooks = new Map<string, TicketingWebhook>();
  readonly triggers = new Map<number, TicketingTrigger>();
  /** Upload tokens (`POST /api/v2/uploads`) not yet used by a comment, with their files. */
  readonly uploads = new Map<string, { attachments: AttachmentRecord[]; expiresAt: number }>();
  /** Every uploaded file's content, by the token in its content_url. */
  readonly files = new Map<string, { attachment: AttachmentRecord; bytes: Buffer }>();
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
    seedTicketingAccount(this);
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

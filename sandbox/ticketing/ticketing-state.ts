/**
 * The records of one emulated ticketing account (one subdomain) and their
 * vocabulary. The account that holds them is ticketing-account.ts.
 */

export const STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_TYPES = ['problem', 'incident', 'question', 'task'] as const;

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: 'end-user' | 'agent' | 'admin';
  organization_id: number | null;
  external_id: string | null;
  phone: string | null;
  time_zone: string;
  notes: string;
  tags: string[];
  suspended: boolean;
  created_at: string;
  updated_at: string;
}

/** The user fields a create or update may set, beside name, email and role. */
export const USER_TEXT_FIELDS = ['external_id', 'phone', 'time_zone', 'notes'] as const;

export interface OrganizationRecord {
  id: number;
  name: string;
  domain_names: string[];
  created_at: string;
  /** Set by a create or update through the API; the seed leaves them out. */
  details?: string | null;
  notes?: string | null;
  external_id?: string | null;
  group_id?: number | null;
  tags?: string[];
  updated_at?: string;
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
  due_at: string | null;
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

/** A group of agents (GroupObject). */
export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  default: boolean;
  deleted: boolean;
  is_public: boolean;
  created_at: string;
  updated_at: string;
}

/** One condition of a view (ViewObject `conditions`): the fields and operators the sandbox evaluates. */
export interface ViewCondition {
  field: 'status' | 'priority' | 'assignee_id' | 'group_id';
  operator: 'is' | 'is_not' | 'less_than' | 'greater_than';
  value: string;
}

/** A view (ViewObject): tickets matching all of its conditions, and any one of `any` when given. */
export interface ViewRecord {
  id: number;
  title: string;
  description: string;
  active: boolean;
  default: boolean;
  position: number;
  conditions: { all: ViewCondition[]; any: ViewCondition[] };
  execution: { sort: { id: string; order: 'asc' | 'desc' } };
  restriction: null;
  created_at: string;
  updated_at: string;
}

/** An email the provider held back instead of making a ticket of it (SuspendedTicketObject). */
export interface SuspendedTicketRecord {
  id: number;
  subject: string;
  content: string;
  cause: string;
  cause_id: number;
  /** `id` only when the sender is a known user, as the description's "author id (if available)". */
  author: { id?: number; name: string; email: string };
  recipient: string;
  message_id: string;
  /** Only when the email answers an existing ticket ("if available"). */
  ticket_id?: number;
  attachments: AttachmentRecord[];
  error_messages: null;
  via: {
    channel: 'email';
    source: { from: { address: string; name: string }; to: { address: string; name: string }; rel: null };
  };
  created_at: string;
  updated_at: string;
}

/** A macro (MacroObject): actions an agent applies to a ticket in one go. */
export interface MacroRecord {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  default: boolean;
  position: number;
  actions: { field: string; value: string }[];
  restriction: null;
  created_at: string;
  updated_at: string;
}

/** The provider's field types: system fields (removable false) and the custom ones. */
export type TicketFieldType =
  | 'subject'
  | 'description'
  | 'status'
  | 'priority'
  | 'text'
  | 'textarea'
  | 'integer'
  | 'decimal'
  | 'checkbox'
  | 'date'
  | 'tagger'
  | 'multiselect';

/** A ticket field (TicketFieldObject); `custom_field_options` only on tagger and multiselect. */
export interface TicketFieldRecord {
  id: number;
  type: TicketFieldType;
  title: string;
  description: string;
  active: boolean;
  required: boolean;
  removable: boolean;
  position: number;
  tag: string | null;
  custom_field_options?: { id: number; name: string; value: string; default: boolean }[];
  created_at: string;
  updated_at: string;
}

/** A ticket form (TicketFormObject): which fields a ticket of the form shows. */
export interface TicketFormRecord {
  id: number;
  name: string;
  display_name: string;
  active: boolean;
  default: boolean;
  end_user_visible: boolean;
  position: number;
  ticket_field_ids: number[];
  created_at: string;
  updated_at: string;
}

import * as z from 'zod';
import { builtOnce } from '../../../../src/kit/index.js';

/**
 * Every kind of change to a ticket the provider has an event type for
 * (its webhook event types, `zen:event-type:ticket.*`), by the name a setup
 * lists it with. The provider has no single "ticket updated" event: each
 * change of an update arrives as its own event, and the events of one
 * update share `event.meta.sequence.id`. Creation, deletion, merging and
 * spam are not changes here: they have triggers or steps of their own.
 */
export const ticketChanges = {
  status: 'ticket.status_changed',
  priority: 'ticket.priority_changed',
  assignee: 'ticket.agent_assignment_changed',
  group: 'ticket.group_assignment_changed',
  subject: 'ticket.subject_changed',
  description: 'ticket.description_changed',
  type: 'ticket.type_changed',
  tags: 'ticket.tags_changed',
  comment: 'ticket.comment_added',
  requester: 'ticket.requester_changed',
  submitter: 'ticket.submitter_changed',
  organization: 'ticket.organization_changed',
  external_id: 'ticket.external_id_changed',
  due_at: 'ticket.task_due_at_changed',
  custom_field: 'ticket.custom_field_changed',
  custom_status: 'ticket.custom_status_changed',
  form: 'ticket.form_changed',
  brand: 'ticket.brand_changed',
  followers: 'ticket.followers_changed',
  email_ccs: 'ticket.email_ccs_changed',
  problem_link: 'ticket.problem_link_changed',
} as const;

export type TicketChangeName = keyof typeof ticketChanges;

const changeNames = Object.keys(ticketChanges) as [TicketChangeName, ...TicketChangeName[]];

/** The provider's event types of the changes named, all of them when none are. */
export function changeEventTypes(names: readonly TicketChangeName[] | undefined): [string, ...string[]] {
  const picked = names?.length ? names : changeNames;
  return picked.map((name) => ticketChanges[name]) as [string, ...string[]];
}

/** The setup list of the changes that start the agent: at least one when given, every change when omitted. */
export const ChangeList = builtOnce(() =>
  z
    .array(z.enum(changeNames))
    .min(1)
    .optional()
    .describe(
      'Only these changes start the agent, e.g. ["status", "tags", "comment"]; the webhook subscribes to those alone. Omit for every change.',
    ),
);

/** What changed in one event (`event` of the delivery): the value before and after, and the update it belongs to. */
export const TicketUpdate = builtOnce(() =>
  z
    .object({
      previous: z.unknown().optional().describe('The value before the change, when the change has one.'),
      current: z.unknown().optional().describe('The value after the change, when the change has one.'),
      meta: z
        .object({
          sequence: z
            .object({
              id: z.string().max(200).describe('The update: the events of one update share it.'),
              position: z.union([z.number(), z.string()]).nullish(),
              total: z.union([z.number(), z.string()]).nullish(),
            })
            .loose()
            .nullish(),
        })
        .loose()
        .nullish(),
    })
    .loose()
    .describe(
      'What changed, in the shape of its event type (a comment for comment_added, tags added and removed...).',
    ),
);

/** The change name of an event type (`zen:event-type:ticket.status_changed` -> `status`), or undefined. */
export function changeNameOf(eventType: string): TicketChangeName | undefined {
  const type = eventType.replace(/^zen:event-type:/, '');
  return changeNames.find((name) => ticketChanges[name] === type);
}

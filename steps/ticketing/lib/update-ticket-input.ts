import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import {
  Assignee,
  CustomFields,
  IsoDateTime,
  PeopleIds,
  Tags,
  TicketId,
  TicketPriority,
  TicketRoutingFields,
  TicketStatus,
  TicketType,
  UploadTokens,
} from './ticket-schema.js';

/** The fields of Update Ticket that change something: at least one is required. */
const CHANGE_FIELDS = [
  'status',
  'priority',
  'type',
  'subject',
  'assignee',
  'add_tags',
  'remove_tags',
  'replace_tags',
  'internal_note',
  'public_comment',
  'custom_fields',
  'requester_id',
  'group_id',
  'organization_id',
  'due_at',
  'add_followers',
  'remove_followers',
  'add_collaborators',
] as const;

export const UpdateTicketInput = builtOnce(() =>
  z
    .strictObject({
      ticket_id: TicketId(),
      status: TicketStatus().optional(),
      priority: TicketPriority().optional(),
      type: TicketType().optional(),
      subject: z.string().trim().min(1).max(1000).optional().describe('New subject line.'),
      assignee: Assignee().optional(),
      add_tags: Tags().optional().describe('Tags to add; other tags stay.'),
      remove_tags: Tags().optional().describe('Tags to remove; other tags stay.'),
      replace_tags: Tags().optional().describe('The complete new set of tags; every other tag is removed.'),
      internal_note: z.string().min(1).max(65_000).optional().describe('A private note only agents see.'),
      public_comment: z.string().min(1).max(65_000).optional().describe('A public reply the requester sees.'),
      custom_fields: CustomFields().optional(),
      upload_tokens: UploadTokens()
        .optional()
        .describe(
          'Upload tokens (from Upload Attachment) whose files go with the public_comment, or the internal_note when there is no reply.',
        ),
      requester_id: TicketRoutingFields().requester_id.optional(),
      group_id: TicketRoutingFields()
        .group_id.nullable()
        .optional()
        .describe('The group (team) to assign; null to clear.'),
      organization_id: TicketRoutingFields().organization_id.optional(),
      due_at: TicketRoutingFields()
        .due_at.nullable()
        .optional()
        .describe('Due date of a task ticket; null to clear.'),
      add_followers: PeopleIds().followers.optional().describe('Agents to add as followers (user ids).'),
      remove_followers: PeopleIds().followers.optional().describe('Followers to remove (user ids).'),
      add_collaborators: PeopleIds().collaborators.optional().describe('Users to add as CCs (user ids).'),
      if_updated_at: IsoDateTime()
        .optional()
        .describe(
          "The ticket's updated_at when you read it: the update is refused (nothing changed) if the ticket changed since.",
        ),
    })
    .superRefine((value, context) => {
      if (value.upload_tokens && !value.public_comment && !value.internal_note) {
        context.addIssue({
          code: 'custom',
          path: ['upload_tokens'],
          message: 'files are attached to a comment: give public_comment or internal_note',
        });
      }
      if (!CHANGE_FIELDS.some((field) => value[field] !== undefined)) {
        context.addIssue({
          code: 'custom',
          message: `give at least one change: ${CHANGE_FIELDS.join(', ')}`,
        });
      }
      if (value.replace_tags && (value.add_tags || value.remove_tags)) {
        context.addIssue({
          code: 'custom',
          path: ['replace_tags'],
          message: 'replace_tags replaces every tag; do not combine it with add_tags or remove_tags',
        });
      }
    }),
);
export type UpdateTicketInput = z.output<ReturnType<typeof UpdateTicketInput>>;

import * as z from 'zod';
import { builtOnce, type HttpClient, NumericId, readAnswer } from '../../../src/kit/index.js';

export const GroupId = builtOnce(() =>
  NumericId().describe('The numeric group id, as List Groups returns it.'),
);
export const TicketFieldId = builtOnce(() =>
  NumericId().describe('The numeric ticket field id, as List Ticket Fields returns it.'),
);
export const TicketFormId = builtOnce(() =>
  NumericId().describe('The numeric ticket form id, as List Ticket Forms returns it.'),
);

/** A group of agents (GroupObject). */
export const Group = builtOnce(() =>
  z.object({
    id: z.number().describe('Group id.'),
    name: z.string().describe('Group name.'),
    description: z.string().nullable().optional().describe('What the group handles.'),
    default: z.boolean().optional().describe('True for the group new tickets go to by default.'),
    is_public: z.boolean().optional().describe('False for a private group (its tickets are private).'),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);

/** A ticket field (TicketFieldObject): a system field or a custom one, with its choices. */
export const TicketField = builtOnce(() =>
  z.object({
    id: z.number().describe('Field id; custom_fields of a ticket refer to it.'),
    type: z.string().describe('subject, status, text, tagger (dropdown), multiselect, checkbox, date...'),
    title: z.string().describe('Title agents see.'),
    description: z.string().nullable().optional().describe('What the field is for.'),
    active: z.boolean().optional().describe('False when the field is switched off.'),
    required: z.boolean().optional().describe('True when agents must fill it to solve a ticket.'),
    removable: z.boolean().optional().describe('False for the system fields.'),
    position: z.number().optional().describe('Order on the form.'),
    tag: z.string().nullable().optional().describe('Tag a checked checkbox adds.'),
    custom_field_options: z
      .array(z.object({ id: z.number().optional(), name: z.string(), value: z.string() }))
      .optional()
      .describe('The choices of a dropdown or multiselect: name shown, value stored.'),
  }),
);

/** A ticket form (TicketFormObject): which fields a ticket of the form shows. */
export const TicketForm = builtOnce(() =>
  z.object({
    id: z.number().describe('Form id.'),
    name: z.string().describe('Name agents see.'),
    display_name: z.string().nullable().optional().describe('Name end users see.'),
    active: z.boolean().optional().describe('False when the form is switched off.'),
    default: z.boolean().optional().describe('True for the form new tickets get.'),
    end_user_visible: z.boolean().optional().describe('True when end users can pick it.'),
    position: z.number().optional().describe('Order among the forms.'),
    ticket_field_ids: z.array(z.number()).default([]).describe('The fields the form shows, in order.'),
  }),
);

/**
 * One offset-paged page (`page`, `per_page` up to 100) of an account list
 * the provider answers whole for most accounts (fields, forms): the records
 * and whether the provider links a next page.
 */
export async function readOffsetPage<Item extends z.ZodType>(
  http: HttpClient,
  request: {
    path: string;
    member: string;
    item: Item;
    page: number;
    query?: Record<string, string | undefined>;
  },
): Promise<{ items: z.output<Item>[]; next_page: number | null }> {
  const response = await http.request({
    method: 'GET',
    path: request.path,
    // An undefined query value is not sent.
    query: { ...request.query, page: request.page, per_page: 100 },
  });
  const answer = readAnswer(
    z.object({ [request.member]: z.array(request.item), next_page: z.string().nullish() }),
    response.body,
    `GET ${request.path}`,
  ) as { next_page?: string | null } & Record<string, z.output<Item>[]>;
  return { items: answer[request.member] ?? [], next_page: answer.next_page ? request.page + 1 : null };
}

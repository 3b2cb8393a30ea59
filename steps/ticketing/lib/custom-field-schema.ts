import * as z from 'zod';
import type { AccountField, AccountSchemaSource } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { ticketingPath } from './paths.js';

/** How the provider's custom field types read as account field types; others (regexp, lookup) stay in `custom_fields`. */
const TYPES: Record<string, AccountField['type']> = {
  text: 'text',
  textarea: 'text',
  integer: 'integer',
  decimal: 'number',
  checkbox: 'checkbox',
  date: 'date',
  tagger: 'dropdown',
  multiselect: 'multiselect',
};

const TicketField = builtOnce(() =>
  z.object({
    id: z.number(),
    type: z.string(),
    title: z.string(),
    active: z.boolean().optional(),
    // System fields (subject, status...) cannot be removed; custom fields can.
    removable: z.boolean().optional(),
    custom_field_options: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  }),
);
const FieldPage = builtOnce(() =>
  z.object({
    ticket_fields: z.array(TicketField()),
    next_page: z.string().nullable().optional(),
  }),
);

/** Fields read at most: five pages of 100, more than any account's form shows. */
const MAX_PAGES = 5;

/** A title as a property name: "Product area" is `product_area`. */
function propertyName(title: string, id: number): string {
  const name = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50);
  return /^[a-z]/.test(name) ? name : `field_${id}`;
}

/** The account's active custom ticket fields, as named, typed input properties; a name two fields share gets the id. */
async function loadFields(http: Parameters<AccountSchemaSource['load']>[0]['http']) {
  const fields: z.infer<ReturnType<typeof TicketField>>[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const response = await http.request({
      method: 'GET',
      path: ticketingPath('ticketFields'),
      query: { page, per_page: 100 },
    });
    const body = FieldPage().parse(response.body);
    fields.push(...body.ticket_fields);
    if (!body.next_page) break;
  }
  const custom = fields.filter(
    (field) => field.removable !== false && field.active !== false && TYPES[field.type],
  );
  const names = custom.map((field) => propertyName(field.title, field.id));
  return custom.map((field, index) => ({
    name:
      names.indexOf(names[index]!) === index ? names[index]! : `${names[index]!}_${field.id}`.slice(0, 64),
    id: field.id,
    title: field.title,
    type: TYPES[field.type]!,
    ...(field.custom_field_options
      ? { choices: field.custom_field_options.map((option) => ({ value: option.value, label: option.name })) }
      : {}),
  }));
}

/**
 * Ticket custom fields as named properties (`product_area: "mobile_app"`)
 * instead of `custom_fields: [{ id, value }]`; the named values are sent as
 * the provider's `custom_fields`, after any the caller gave by id.
 */
export const customFieldSchema: AccountSchemaSource<{ custom_fields?: { id: number; value: unknown }[] }> = {
  load: async ({ http }) => ({ fields: await loadFields(http) }),
  toInput: (values, input) => ({
    custom_fields: [
      ...(input.custom_fields ?? []),
      ...values.map(({ field, value }) => ({ id: Number(field.id), value })),
    ],
  }),
};

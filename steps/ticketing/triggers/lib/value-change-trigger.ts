import * as z from 'zod';
import { changedInto, Delivery } from './business-rule.js';
import { ticketEventDelivery } from './event-delivery.js';
import {
  ticketEventExample,
  ticketEventSchema,
  ticketPriorities,
  ticketStatuses,
  ticketVariables,
  ValueChange,
} from './ticket-event.js';
import { onlyValues, skipUnlessListed } from './value-filter.js';

/** The ticket fields a change trigger watches: the setup key that lists the values to start for, and those values. */
const watchedFields = {
  status: { filter: 'to_statuses', values: ticketStatuses },
  priority: { filter: 'to_priorities', values: ticketPriorities },
} as const;

type WatchedField = keyof typeof watchedFields;

/**
 * What a "ticket <field> changed" trigger (`ticket.<field>_changed`) is
 * besides its words: the change event, the variables with the new and
 * previous value, a setup that lists the values to start the agent for
 * (checked here, or at the provider with delivery business_rule), and the
 * delivery.
 */
export function ticketValueChange<Field extends WatchedField>(
  field: Field,
  words: { filterDescription: string; example: { previous: string; current: string } },
) {
  const eventType = `ticket.${field}_changed`;
  type Filter = (typeof watchedFields)[Field]['filter'];
  type Values = (typeof watchedFields)[Field]['values'];
  type Setup = Partial<Record<Filter, readonly string[]>>;
  // Indexing by a type parameter widens to the union of both entries; the cast keeps this field's.
  const { filter, values } = watchedFields[field] as { filter: Filter; values: Values };
  // A computed key is typed as any string; the cast names the one field it is.
  const valueList = { [filter]: onlyValues(values, words.filterDescription) } as Record<
    Filter,
    ReturnType<typeof onlyValues<Values>>
  >;
  return {
    event: ticketEventSchema(eventType, ValueChange(z.string())),
    variables: { ...ticketVariables, [field]: '$.event.current', [`previous_${field}`]: '$.event.previous' },
    setup: z.object({ ...valueList, delivery: Delivery() }).strict(),
    ...ticketEventDelivery(eventType, {
      field,
      conditions: (setup: Setup) => changedInto(field, setup[filter]),
    }),
    skipReason: (event: { event: { current?: string | null | undefined } }, setup: Setup) =>
      skipUnlessListed(field, event.event.current, setup[filter]),
    example: ticketEventExample(eventType, words.example),
  };
}

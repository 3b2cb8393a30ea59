import * as z from 'zod';
import { ticketing } from '../../integration.js';
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

/** What a "ticket <field> changed" trigger's file says: its id and words, its setup's description, its example's change. */
export interface ValueChangeTriggerSpec<Id extends `ticketing.${string}`> {
  id: Id;
  title: string;
  description: string;
  agentDescription: string;
  keywords: readonly string[];
  /** What the setup's list of values means, for people and models. */
  filterDescription: string;
  example: { previous: string; current: string };
}

/**
 * A "ticket <field> changed" trigger (`ticket.<field>_changed`): the change
 * event, the variables with the new and previous value, a setup that lists
 * the values to start the agent for (checked here, or at the provider with
 * delivery business_rule), and the delivery: the definition the trigger's
 * file hands to `defineTrigger`, words included. Whole rather than spread
 * into that file's definition: a spread reads the event and setup getters,
 * which would build their schemas when the catalogue is imported.
 */
export function ticketValueChange<Field extends WatchedField, const Id extends `ticketing.${string}`>(
  field: Field,
  spec: ValueChangeTriggerSpec<Id>,
) {
  const { filterDescription, example, ...words } = spec;
  const eventType = `ticket.${field}_changed`;
  type Filter = (typeof watchedFields)[Field]['filter'];
  type Values = (typeof watchedFields)[Field]['values'];
  type Setup = Partial<Record<Filter, readonly string[]>>;
  // Indexing by a type parameter widens to the union of both entries; the cast keeps this field's.
  const { filter, values } = watchedFields[field] as { filter: Filter; values: Values };
  return {
    ...words,
    integration: ticketing,
    get event() {
      return ticketEventSchema(eventType, ValueChange(z.string()));
    },
    variables: { ...ticketVariables, [field]: '$.event.current', [`previous_${field}`]: '$.event.previous' },
    get setup() {
      // A computed key is typed as any string; the cast names the one field it is.
      const valueList = { [filter]: onlyValues(values, filterDescription) } as Record<
        Filter,
        ReturnType<typeof onlyValues<Values>>
      >;
      return z.object({ ...valueList, delivery: Delivery() }).strict();
    },
    ...ticketEventDelivery(eventType, {
      field,
      conditions: (setup: Setup) => changedInto(field, setup[filter]),
    }),
    skipReason: (event: { event: { current?: string | null | undefined } }, setup: Setup) =>
      skipUnlessListed(field, event.event.current, setup[filter]),
    example: ticketEventExample(eventType, example),
  };
}

import * as z from 'zod';
import { builtOnce, defineTrigger, earlierTriggerMajor } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import {
  ASSIGNMENT_EVENT_TYPE,
  downgradeAssignedPayload,
  TicketAssignedPayloadMajor1,
  ticketAssignedPathsToMajor2,
  ticketAssignedVariablesMajor1,
} from './lib/ticket-assigned-major-1.js';
import { ticketEventExample, ticketEventSchema, ticketVariables, ValueChange } from './lib/ticket-event.js';

const AgentId = builtOnce(() => z.union([z.string(), z.number()]));

/**
 * The provider's `event: { previous, current }` as major 2 names it: a
 * mapping of `$.event.current` said "the current what?", so the two ids are
 * named after what they hold, as the ticket's own `assignee_id`. Their
 * values are the provider's as sent (string or number), so major 1 can be
 * given exactly what it was; what else the provider puts under `event` is kept.
 */
const Assignment = builtOnce(() =>
  ValueChange(AgentId())
    .transform(({ previous, current, ...rest }) => ({
      ...rest,
      assignee_id: current ?? null,
      previous_assignee_id: previous ?? null,
    }))
    .pipe(
      z
        .object({
          assignee_id: AgentId()
            .nullable()
            .describe('Agent the ticket is assigned to now; null when unassigned.'),
          previous_assignee_id: AgentId()
            .nullable()
            .describe('Agent it was assigned to before; null when it had none.'),
        })
        .loose(),
    ),
);

const CHANGELOG_1_0 =
  'First version: the assignment as the provider names it, event.previous and event.current.';

/** Major 2's payload schema, built on first read like every schema under steps/. */
const event = builtOnce(() => ticketEventSchema(ASSIGNMENT_EVENT_TYPE, Assignment()));

export default defineTrigger({
  id: 'ticketing.ticket_assigned',
  integration: ticketing,
  version: '2.0',
  changelog: {
    '1.0': CHANGELOG_1_0,
    '2.0':
      'The assignment is event.assignee_id and event.previous_assignee_id; major 1 is served by migration.',
  },
  earlier: [
    earlierTriggerMajor(
      {
        get event() {
          return event();
        },
      },
      {
        version: '1.0',
        get payload() {
          return TicketAssignedPayloadMajor1();
        },
        variables: ticketAssignedVariablesMajor1,
        deprecated: { replacement: 'ticketing.ticket_assigned@2', endsOn: '2027-06-30' },
        changelog: { '1.0': CHANGELOG_1_0 },
        downgradePayload: downgradeAssignedPayload,
        paths: ticketAssignedPathsToMajor2,
      },
    ),
  ],
  title: 'Ticket assigned to an agent',
  description: 'Starts the agent when a ticket is assigned (or reassigned) to an agent.',
  agentDescription:
    'Fires once per assignment change. `assignee` is the new agent id (null when unassigned), `previous_assignee` the old one.',
  keywords: ['assigned', 'assignee', 'agent', 'reassigned', 'zendesk'],
  get event() {
    return event();
  },
  variables: {
    ...ticketVariables,
    assignee: '$.event.assignee_id',
    previous_assignee: '$.event.previous_assignee_id',
  },
  get setup() {
    return z
      .object({
        include_unassigned: z
          .boolean()
          .default(false)
          .describe('Also start the agent when a ticket loses its assignee.'),
      })
      .strict();
  },
  ...ticketEventDelivery(ASSIGNMENT_EVENT_TYPE),
  skipReason: (payload, setup) =>
    payload.event.assignee_id === null && !setup.include_unassigned ? 'the ticket was unassigned' : undefined,
  example: ticketEventExample(ASSIGNMENT_EVENT_TYPE, { previous: null, current: '8447388090111' }),
});

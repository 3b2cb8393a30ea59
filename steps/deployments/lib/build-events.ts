import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

/** Most events one call returns; the provider's own default page is 100 too. */
export const MAX_EVENTS_PER_CALL = 100;
/** Most characters of log text one call returns, all events together; the page ends early past it. */
export const MAX_TEXT_PER_CALL = 64 * 1024;
/** Most characters of one event's text; a longer line is cut and marked truncated. */
export const MAX_TEXT_PER_EVENT = 4 * 1024;
/** Most bytes of answer read per call: the events asked for, with room for the provider's envelope. */
export const MAX_EVENTS_RESPONSE_BYTES = 2 * 1024 * 1024;

const Info = builtOnce(() => z.object({ type: z.string().optional(), name: z.string().optional() }).loose());

/**
 * The two shapes the provider's description gives a build event: one with
 * its fields in `payload`, one flat with a `level`.
 */
const PayloadEvent = builtOnce(() =>
  z
    .object({
      type: z.string(),
      created: z.number(),
      payload: z
        .object({
          id: z.string(),
          text: z.string().optional(),
          date: z.number().optional(),
          info: Info().optional(),
        })
        .loose(),
    })
    .loose(),
);
const FlatEvent = builtOnce(() =>
  z
    .object({
      type: z.string(),
      created: z.number(),
      id: z.string(),
      text: z.string().optional(),
      level: z.enum(['error', 'warning']).optional(),
    })
    .loose(),
);

export const BuildEvent = builtOnce(() =>
  z.object({
    id: z.string().describe('Event id.'),
    type: z
      .string()
      .describe(
        'stdout, stderr, command, delimiter, exit, deployment-state, fatal, or another provider type.',
      ),
    created_at: z.string().describe('ISO 8601 time of the event.'),
    text: z.string().describe(`The log line (at most ${MAX_TEXT_PER_EVENT} characters).`),
    level: z.string().nullable().describe('error or warning when the provider marks the line; else null.'),
    truncated: z
      .boolean()
      .describe(`True when the line was longer than ${MAX_TEXT_PER_EVENT} characters and was cut.`),
  }),
);
export type BuildEvent = z.infer<ReturnType<typeof BuildEvent>>;

/** An event in our shape, with the provider's ms time kept beside it for the cursor. */
export interface TimedEvent {
  event: BuildEvent;
  created: number;
}

/** Either shape, flattened. */
function eventFields(raw: unknown, where: string) {
  const nested = PayloadEvent().safeParse(raw);
  if (nested.success) {
    const { type, created, payload } = nested.data;
    return { type, created, id: payload.id, text: payload.text ?? '', level: null };
  }
  const flat = readAnswer(FlatEvent(), raw, where, 'a build event');
  return {
    type: flat.type,
    created: flat.created,
    id: flat.id,
    text: flat.text ?? '',
    level: flat.level ?? null,
  };
}

function toBuildEvent(raw: unknown, where: string): TimedEvent {
  const fields = eventFields(raw, where);
  const truncated = fields.text.length > MAX_TEXT_PER_EVENT;
  return {
    created: fields.created,
    event: {
      id: fields.id,
      type: fields.type,
      created_at: isoTime(fields.created) as string,
      text: truncated ? fields.text.slice(0, MAX_TEXT_PER_EVENT) : fields.text,
      level: fields.level,
      truncated,
    },
  };
}

/** The provider answers a JSON array of events, or null when there are none yet. */
export function readBuildEvents(body: unknown): TimedEvent[] {
  const list = readAnswer(z.array(z.unknown()).nullable(), body, 'events', 'a list of build events');
  return (list ?? []).map((raw, index) => toBuildEvent(raw, `events.${index}`));
}

/**
 * Where the next page starts: the time of the last event returned, and how
 * many events of that same millisecond were returned already. The provider
 * pages by `since` (a ms time); the count lets the next call skip the events
 * it has seen without losing others logged in the same millisecond.
 */
export const EventsCursor = builtOnce(() =>
  z
    .string()
    .regex(/^\d{1,16}:\d{1,3}$/, 'a next_cursor value from a previous page')
    .describe('next_cursor from the previous call: the events after it.'),
);

export function parseEventsCursor(cursor: string): { since: number; seen: number } {
  const [since, seen] = cursor.split(':').map(Number) as [number, number];
  return { since, seen };
}

export function eventsCursorAfter(
  events: TimedEvent[],
  previous?: { since: number; seen: number },
): string | null {
  const last = events.at(-1);
  if (!last) return previous ? `${previous.since}:${previous.seen}` : null;
  const sameMs = events.filter((event) => event.created === last.created).length;
  const carried = previous && previous.since === last.created && sameMs === events.length ? previous.seen : 0;
  return `${last.created}:${sameMs + carried}`;
}

/** The events after the cursor: older ones and the first `seen` of its millisecond are dropped. */
export function afterCursor(events: TimedEvent[], cursor: { since: number; seen: number }): TimedEvent[] {
  let skip = cursor.seen;
  return events.filter((event) => {
    if (event.created < cursor.since) return false;
    if (event.created === cursor.since && skip > 0) {
      skip -= 1;
      return false;
    }
    return true;
  });
}

/** The longest run of events, from the start, within `limit` events and the text budget. */
export function withinBudget(events: TimedEvent[], limit: number): TimedEvent[] {
  const kept: TimedEvent[] = [];
  let characters = 0;
  for (const timed of events) {
    if (kept.length === limit) break;
    characters += timed.event.text.length;
    // The first event always goes out (it is at most MAX_TEXT_PER_EVENT), so a page always moves on.
    if (characters > MAX_TEXT_PER_CALL && kept.length > 0) break;
    kept.push(timed);
  }
  return kept;
}

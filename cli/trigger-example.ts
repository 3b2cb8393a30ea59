import type * as z from 'zod';
import { mapVariables } from '../src/mapping/mapping.js';
import type { AnyTrigger } from '../src/triggers/define-trigger.js';
import { payloadAtMajor } from '../src/triggers/trigger-at-major.js';

/** A trigger's example run offline: the provider's body, and the variables an agent started by it receives. */
export interface TriggerExampleRun {
  /** The body the provider would send, as the trigger's example writes it. */
  readonly body: unknown;
  /** The default variables read from the parsed payload (at the trigger's major), as the intake maps them. */
  readonly variables: Record<string, unknown>;
}

/**
 * Runs `trigger`'s example through what the intake does after verifying a
 * delivery: the payload schema, the major's migration, the default mapping.
 * Nothing is sent or stored. A fixed event id and time, so the page reads
 * the same on every run. Undefined for a trigger without an example.
 */
export function runTriggerExample(trigger: AnyTrigger): TriggerExampleRun | undefined {
  if (!trigger.example) return undefined;
  const body = trigger.example({ eventId: 'example-event', occurredAt: '2026-01-15T09:30:00Z' });
  const parsed = trigger.event.safeParse(body);
  if (!parsed.success) {
    const paths = parsed.error.issues.map((issue: z.core.$ZodIssue) => issue.path.join('.') || '(body)');
    throw new Error(`${trigger.id}: its example does not match its payload schema at ${paths.join(', ')}.`);
  }
  const payload = payloadAtMajor(trigger, parsed.data);
  return { body, variables: { ...mapVariables(payload, trigger.variables) } };
}

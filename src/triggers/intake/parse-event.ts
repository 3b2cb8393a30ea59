import type * as z from 'zod';
import type { FieldIssue } from '../../errors/index.js';
import type { AnyTrigger, EventFacts } from '../define-trigger.js';
import { IntakeRefusal } from './intake-refusal.js';

export interface ParsedEvent {
  payload: unknown;
  facts: EventFacts;
}

/**
 * Stage 4, parse and validate: the verified bytes as JSON, checked against
 * the trigger's payload schema. A failure is a 400 naming the failing
 * fields (never their values).
 */
export function parseEvent(trigger: AnyTrigger, body: Uint8Array): ParsedEvent {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw new IntakeRefusal(400, 'invalid_payload', 'The body is not JSON.', [
      { path: '(body)', message: 'not JSON' },
    ]);
  }
  const parsed = trigger.event.safeParse(json);
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.map((issue: z.core.$ZodIssue) => ({
      path: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    }));
    throw new IntakeRefusal(
      400,
      'invalid_payload',
      `The payload does not match ${trigger.id}: ${issues.map((issue) => issue.path).join(', ')}.`,
      issues,
    );
  }
  return { payload: parsed.data, facts: trigger.parse(parsed.data) };
}

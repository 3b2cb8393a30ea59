import { z } from 'zod';
import type { Runtime } from '../runtime.js';
import { defineStep, type StepContext } from '../step.js';
import type { AnyTrigger } from '../trigger.js';

/**
 * Runs `work` with a `ctx.http` bound to `connection` exactly as a step's:
 * the same invocation pipeline (connection checks, token refresh, rate gate,
 * retries, error classification and redaction), through a one-off step that
 * is never registered. Creating a webhook is a non-idempotent write, so the
 * transport never replays it once its bytes may have left.
 */
export async function withProviderSession<T>(
  runtime: Runtime,
  trigger: AnyTrigger,
  connection: string,
  work: (context: StepContext) => Promise<T>,
): Promise<T> {
  let result: T | undefined;
  const session = defineStep({
    id: `${trigger.integration.id}.manage_trigger_webhook`,
    integration: trigger.integration,
    title: `Manage the webhook of ${trigger.title}`,
    description: 'Internal: provisions, reads or removes a trigger webhook at the provider.',
    agentDescription: 'Internal to trigger subscriptions; never offered to agents.',
    keywords: [],
    input: z.object({}),
    output: z.object({}),
    access: 'write',
    idempotent: false,
    variables: {},
    run: async (_input, context) => {
      result = await work(context);
      return {};
    },
  });
  await runtime.invoke(session, { connection, input: {} });
  return result as T;
}

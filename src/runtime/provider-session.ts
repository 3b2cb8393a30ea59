import * as z from 'zod';
import type { Integration } from '../model/define-integration.js';
import { defineStep, type StepContext } from '../step/define-step.js';
import type { Runtime } from './runtime.js';

/** What a session is for: a trigger, or any work with a title against one integration (a connection check). */
export interface SessionOwner {
  integration: Integration;
  title: string;
}

/**
 * Runs `work` with a `ctx.http` bound to `connection` exactly as a step's:
 * the same invocation pipeline (connection checks, token refresh, rate gate,
 * retries, error classification and redaction), through a one-off step that
 * is never registered. Creating a webhook is a non-idempotent write, so the
 * transport never replays it once its bytes may have left (a GET is
 * replayed as always). `on.caller` names who asked in the session's audit
 * record (a builder token's id), when not the runtime's own caller.
 */
export async function withProviderSession<T>(
  runtime: Runtime,
  owner: SessionOwner,
  on: string | { connection: string; caller?: string | undefined; signal?: AbortSignal | undefined },
  work: (context: StepContext) => Promise<T>,
): Promise<T> {
  const { connection, caller, signal } =
    typeof on === 'string' ? { connection: on, caller: undefined, signal: undefined } : on;
  let result: T | undefined;
  const session = defineStep({
    id: `${owner.integration.id}.provider_session`,
    integration: owner.integration,
    title: owner.title,
    description: 'Internal: provisions, reads or removes a trigger webhook, or checks a connection.',
    agentDescription: 'Internal to trigger subscriptions and connection checks; never offered to agents.',
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
  await runtime.invoke(session, {
    connection,
    input: {},
    ...(caller === undefined ? {} : { caller }),
    ...(signal === undefined ? {} : { signal }),
  });
  return result as T;
}

import { expect } from 'vitest';
import type { SandboxAgentTools } from './sandbox-agent-tools.js';

/**
 * create_ticket calls a model gets wrong, each with the field our answer
 * must name: a wrong type, a required field left out, an empty subject
 * (which a JSON schema without `minLength` lets through to zod).
 */
export const MISFIT_CREATE_CALLS = [
  { args: { subject: 42, description: 'Wrong type.' }, field: 'subject' },
  { args: { subject: 'No description' }, field: 'description' },
  { args: { subject: '', description: 'Empty subject.' }, field: 'subject' },
] as const;

/** How many writes the sandbox received so far: a refused call must not add one. */
export function sandboxPosts(live: SandboxAgentTools): number {
  return live.fixture.sandbox.server.requestLog.filter((entry) => entry.method === 'POST').length;
}

/** What a runtime must hand the model for a misfit call: our error, the field named, nothing sent. */
export function expectInputErrorNaming(
  error: { fields?: { path: string }[] } | undefined,
  field: string,
): void {
  expect(error).toMatchObject({ name: 'InputError', code: 'input_invalid', retryable: false, sent: false });
  expect(error?.fields?.map((issue) => issue.path)).toContain(field);
}

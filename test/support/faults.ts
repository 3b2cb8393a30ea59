import { expect } from 'vitest';
import { CONTROL_HEADER, type FaultRule, type Sandbox } from '../../sandbox/index.js';

/**
 * The connection of the next matching request drops: `after` the provider
 * acted (its answer is lost: the write may have landed), or `before` it saw
 * anything (safe to send again).
 */
export function resetOnce(
  where: Omit<FaultRule, 'count' | 'action'>,
  when: 'before' | 'after' = 'after',
): FaultRule {
  return { ...where, count: 1, action: { kind: 'reset', when } };
}

/** Flips a fault switch through the sandbox's control endpoint, as a script outside the process would. */
export async function flipFault(sandbox: Sandbox, rule: FaultRule): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONTROL_HEADER]: '1' },
    body: JSON.stringify(rule),
  });
  expect(response.status).toBe(201);
}

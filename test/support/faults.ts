import type { FaultRule } from '../../sandbox/index.js';

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

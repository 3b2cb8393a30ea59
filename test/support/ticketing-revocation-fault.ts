import type { FaultRule, Sandbox } from '../../sandbox/index.js';

/** Makes the sandbox's ticketing revocations (DELETE /api/v2/oauth/tokens/...) fail `count` times, before anything is revoked. */
export function failTicketingRevocations(
  sandbox: Sandbox,
  count = 1,
  action: FaultRule['action'] = { kind: 'status', status: 503 },
): void {
  sandbox.faults.add({
    target: 'ticketing',
    method: 'DELETE',
    pathIncludes: '/oauth/tokens/',
    count,
    action,
  });
}

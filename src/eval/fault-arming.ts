import type { ScenarioFault } from './scenario-fault.js';
import type { FaultRuleBody, TwinClient } from './twin-client.js';

/** What the report says of a fault: its kind, its twin, and the call it was armed before. */
export interface ArmedFault {
  index: number;
  kind: ScenarioFault['kind'];
  twin: string;
  /** The 1-based tool call it was armed before. */
  beforeCall: number;
}

function ruleOf(fault: ScenarioFault, action: FaultRuleBody['action']): FaultRuleBody {
  return {
    target: fault.twin,
    count: fault.count,
    action,
    ...(fault.method ? { method: fault.method.toUpperCase() } : {}),
    ...(fault.path_includes ? { pathIncludes: fault.path_includes } : {}),
  };
}

/** Arms one fault on the twins, through the control endpoints, with the switch the sandbox has for it. */
export async function armFault(twins: TwinClient, fault: ScenarioFault): Promise<void> {
  switch (fault.kind) {
    case 'rate_limit':
      await twins.addFault(
        ruleOf(fault, {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': String(fault.retry_after_s) },
          body: { error: 'TooManyRequests', description: 'Rate limit exceeded (injected by the scenario).' },
        }),
      );
      return;
    case 'server_error':
      await twins.addFault(
        ruleOf(fault, { kind: 'status', status: fault.status, when: fault.after_write ? 'after' : 'before' }),
      );
      return;
    case 'slow':
      await twins.addFault(ruleOf(fault, { kind: 'delay', ms: fault.ms }));
      return;
    case 'timeout':
      await twins.addFault(ruleOf(fault, { kind: 'reset', when: 'after' }));
      return;
    case 'expired_token':
      await twins.tokens(fault.twin, 'expire');
      return;
    case 'revoked_grant':
      await twins.tokens(fault.twin, 'revoke');
      return;
    case 'duplicate_webhook':
      await twins.addWebhookFault({ kind: 'duplicate', target: fault.twin, count: fault.count });
      return;
  }
}

/**
 * The scenario's faults, armed as the run reaches their moments: `due`
 * before each tool call says which to arm now (once each).
 */
export class FaultSchedule {
  private readonly pending: { fault: ScenarioFault; index: number }[];
  private readonly stepCalls = new Map<string, number>();
  readonly armed: ArmedFault[] = [];

  constructor(faults: readonly ScenarioFault[]) {
    this.pending = faults.map((fault, index) => ({ fault, index }));
  }

  /** Before the `call`-th tool call (1-based), a call of `step`: arms each fault whose moment it is. */
  async before(twins: TwinClient, call: number, step: string): Promise<ArmedFault[]> {
    const seen = (this.stepCalls.get(step) ?? 0) + 1;
    this.stepCalls.set(step, seen);
    const due = this.pending.filter(({ fault }) => {
      const at = fault.at;
      if (!at || (at.call === undefined && at.step === undefined)) return true;
      if (at.call !== undefined) return call >= at.call;
      return at.step === step && seen >= at.occurrence;
    });
    const now: ArmedFault[] = [];
    for (const entry of due) {
      this.pending.splice(this.pending.indexOf(entry), 1);
      await armFault(twins, entry.fault);
      now.push({ index: entry.index, kind: entry.fault.kind, twin: entry.fault.twin, beforeCall: call });
    }
    this.armed.push(...now);
    return now;
  }
}

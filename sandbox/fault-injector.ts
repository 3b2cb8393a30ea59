/**
 * Fault switches for tests: the next N matching requests fail with a status,
 * have their connection reset, or are delayed. A reset can happen before the
 * emulator acts or after it has acted, which is the case that decides
 * whether a write may be replayed.
 */
export type FaultAction =
  | {
      kind: 'status';
      status: number;
      body?: unknown;
      headers?: Record<string, string>;
      /** `after`: the emulator acts first (charges, creates), then the failure is answered. Default `before`. */
      when?: 'before' | 'after';
    }
  | { kind: 'reset'; when: 'before' | 'after' }
  | {
      kind: 'delay';
      ms: number;
      /**
       * The provider never reads a request whose client hung up during the
       * delay (a process killed while waiting): it is dropped, not acted on.
       */
      dropIfAbandoned?: boolean;
    };

/** Which requests a fault hits, and what happens to them: the next `count` requests that match. */
export interface FaultRule {
  /** Emulator mount, e.g. `ticketing`; omitted = any. */
  target?: string;
  method?: string;
  /** Substring of the path below the mount. */
  pathIncludes?: string;
  /** How many matching requests the rule affects. */
  count: number;
  action: FaultAction;
}

/** The sandbox's fault switches (`sandbox.faults`): tests add rules to make the emulators misbehave on cue. */
export class FaultInjector {
  private rules: FaultRule[] = [];
  /** How many requests each fault has hit, for assertions. */
  triggered = 0;

  /** Arms a rule; rules are checked in the order added, and each expires after its count. */
  add(rule: FaultRule): void {
    if (rule.count > 0) this.rules.push({ ...rule });
  }

  /** Disarms every rule, so one test's leftovers cannot fail the next. */
  clear(): void {
    this.rules = [];
  }

  /** Takes the first matching rule's action, spending one of its count. */
  take(target: string, method: string, path: string): FaultAction | undefined {
    const rule = this.rules.find(
      (candidate) =>
        (!candidate.target || candidate.target === target) &&
        (!candidate.method || candidate.method === method) &&
        (!candidate.pathIncludes || path.includes(candidate.pathIncludes)),
    );
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((candidate) => candidate !== rule);
    this.triggered += 1;
    return rule.action;
  }
}

/**
 * Fault switches for outgoing webhook deliveries, so a receiver's defences
 * can be tested: the next N deliveries arrive twice, are held back on the
 * sandbox clock, or carry a signature made with the wrong secret.
 */
export type WebhookFaultKind = 'duplicate' | 'delay' | 'bad_signature';

/** Which deliveries a webhook fault hits: the next `count` of one emulator, or of any. */
export interface WebhookFaultRule {
  kind: WebhookFaultKind;
  /** Emulator mount (`ticketing`, `deployments`); omitted = any. */
  target?: string;
  /** How many deliveries the rule affects. */
  count: number;
  /** For `delay`: how long the delivery is held, in ms of the sandbox clock. */
  ms?: number;
}

/** The sandbox's webhook fault switches (`sandbox.webhookFaults`). */
export class WebhookFaults {
  private rules: WebhookFaultRule[] = [];

  /** Arms a rule; it expires after `count` deliveries. */
  add(rule: WebhookFaultRule): void {
    if (rule.count > 0) this.rules.push({ ...rule });
  }

  /** Disarms every rule, so one test's leftovers cannot affect the next. */
  clear(): void {
    this.rules = [];
  }

  /** Spends one of the first matching rule of this kind, and answers it. */
  take(kind: WebhookFaultKind, target: string): WebhookFaultRule | undefined {
    const rule = this.rules.find(
      (candidate) => candidate.kind === kind && (!candidate.target || candidate.target === target),
    );
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((candidate) => candidate !== rule);
    return rule;
  }
}

/** One charge the provider made, for assertions that nothing was charged twice. */
export interface Charge {
  key: string;
  path: string;
  credits: number;
  at: number;
}

/**
 * Credit balances per API key, the way the provider bills: a charge only
 * for a successful lookup, refused whole when the balance is short.
 */
export class CreditLedger {
  private readonly balances = new Map<string, number>();
  readonly charges: Charge[] = [];

  open(key: string, credits: number): void {
    this.balances.set(key, credits);
  }

  has(key: string): boolean {
    return this.balances.has(key);
  }

  balance(key: string): number {
    return this.balances.get(key) ?? 0;
  }

  /** Charged in all to a key, or to every key. */
  spent(key?: string): number {
    return this.charges
      .filter((charge) => key === undefined || charge.key === key)
      .reduce((total, charge) => total + charge.credits, 0);
  }

  /** Deducts `credits` when the balance covers them; false (and no change) when it does not. */
  spend(key: string, path: string, credits: number, at: number): boolean {
    const balance = this.balance(key);
    if (credits > balance) return false;
    if (credits > 0) {
      this.balances.set(key, balance - credits);
      this.charges.push({ key, path, credits, at });
    }
    return true;
  }

  reset(): void {
    this.balances.clear();
    this.charges.length = 0;
  }
}

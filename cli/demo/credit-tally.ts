import type { InvocationResult } from '../../src/runtime/runtime.js';
import type { DemoContext } from './demo-context.js';

/** Runs a story's paid steps on one connection and adds up the credits the provider charged for them. */
export class CreditTally {
  #spent = 0;

  constructor(
    private readonly demo: DemoContext,
    private readonly connection: string,
  ) {}

  /** Credits charged so far, as the provider reported them. */
  get spent(): number {
    return this.#spent;
  }

  async run<Output>(stepId: string, input: unknown, note?: string): Promise<InvocationResult<Output>> {
    const result = await this.demo.step<Output>(stepId, this.connection, input, note);
    this.#spent += result.meta.credits?.charged ?? 0;
    return result;
  }
}

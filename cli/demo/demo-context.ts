import type { Sandbox } from '../../sandbox/index.js';
import type { Registry } from '../../src/catalog/registry.js';
import type { InvocationResult, Runtime } from '../../src/runtime/runtime.js';

/** What each demo story gets: a running sandbox, a runtime over an in-memory store, and a printer. */
export interface DemoContext {
  sandbox: Sandbox;
  runtime: Runtime;
  registry: Registry;
  /** Runs a step and prints what an agent would see: its variables. */
  step<Output = unknown>(
    stepId: string,
    connection: string,
    input: unknown,
    note?: string,
  ): Promise<InvocationResult<Output>>;
  say(text: string): void;
  heading(text: string): void;
}

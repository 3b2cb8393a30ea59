import { isToolstepsError } from '../../src/errors/index.js';
import type { DemoContext } from './demo-context.js';

/** Runs an invocation the runtime should refuse, and prints the error and how many requests reached the provider. */
export async function showRefusal(
  demo: DemoContext,
  label: string,
  run: () => Promise<unknown>,
): Promise<void> {
  const log = demo.sandbox.server.requestLog;
  const before = log.length;
  try {
    await run();
    demo.say(`${label}: unexpectedly accepted`);
  } catch (error) {
    if (!isToolstepsError(error)) throw error;
    demo.say(`${label}: ${error.name} ${error.code}: ${error.message}`);
    demo.say(`  requests sent to the provider: ${log.length - before}`);
  }
}

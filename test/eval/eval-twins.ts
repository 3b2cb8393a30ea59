import { type Sandbox, sandboxTwins, startSandbox } from '../../sandbox/index.js';
import type { Twins } from '../../src/eval/twins.js';
import { createRegistry } from '../../steps/index.js';
import { useFixture } from '../support/fixture-lifecycle.js';

/** The sandbox started once for a file's tests, as the evaluation's twins, with the registry they serve. */
export interface EvalTwins {
  sandbox: Sandbox;
  twins: Twins;
  registry: ReturnType<typeof createRegistry>;
  close(): Promise<void>;
}

async function openEvalTwins(): Promise<EvalTwins> {
  const registry = createRegistry();
  const sandbox = await startSandbox();
  return { sandbox, registry, twins: sandboxTwins(sandbox, { registry }), close: () => sandbox.close() };
}

export function useEvalTwins(): EvalTwins {
  return useFixture(openEvalTwins, 'all');
}

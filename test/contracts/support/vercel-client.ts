import { Vercel } from '@vercel/sdk';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.js';

/**
 * A sandbox, and @vercel/sdk (unmodified) signed in to it as the seeded
 * user ada, closable as one fixture (useFixture).
 */
export async function vercelWorld(
  options: SandboxOptions = {},
): Promise<{ sandbox: Sandbox; vercel: Vercel; close(): Promise<void> }> {
  const sandbox = await startSandbox(options);
  const vercel = new Vercel({
    bearerToken: sandbox.deployments.issueToken(1),
    serverURL: sandbox.baseUrl('deployments'),
  });
  return { sandbox, vercel, close: () => sandbox.close() };
}

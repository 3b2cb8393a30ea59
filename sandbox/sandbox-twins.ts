import { InputError } from '../src/errors/input-error.js';
import type { Twins } from '../src/eval/twins.js';
import {
  SANDBOX_INTEGRATIONS,
  type SandboxConnectionsOptions,
  type SandboxIntegrationId,
  sandboxConnections,
} from './sandbox-connections.js';

/** The part of a started sandbox the twins need: its address, and how to stop it. */
interface StartedSandbox {
  url: string;
  baseUrl(mount: string, account?: string): string;
  close(): Promise<void>;
}

/**
 * A started sandbox (`startSandbox()`) as the twins of `runEvaluation` and
 * `toolsteps eval`: connections are made the way a person makes them (OAuth
 * sign-in for ticketing and deployments, the published keys for the rest),
 * afresh for every run, since each run starts with a reset.
 */
export function sandboxTwins(
  sandbox: StartedSandbox,
  options: { registry: SandboxConnectionsOptions['registry'] },
): Twins {
  return {
    url: sandbox.url,
    connect: async (integrations) => {
      const unknown = integrations.filter((id) => !(SANDBOX_INTEGRATIONS as readonly string[]).includes(id));
      if (unknown.length) {
        throw new InputError(`The sandbox has no twin of ${unknown.join(', ')}.`, [
          { path: 'connections', message: `one of ${SANDBOX_INTEGRATIONS.join(', ')}` },
        ]);
      }
      const made = await sandboxConnections(sandbox, {
        registry: options.registry,
        integrations: integrations as SandboxIntegrationId[],
      });
      return Object.values(made).filter((connection) => connection !== undefined);
    },
    close: () => sandbox.close(),
  };
}

import { type Sandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.js';
import { ManualClock } from '../../../src/model/clock.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../../src/store/memory/memory-connection-store.js';
import {
  type CatalogInput,
  type CatalogResult,
  type CatalogStepName,
  catalogInvokers,
  type TypedInvoke,
} from '../../support/catalog-invoke.js';
import { stamped, type UnstampedConnection } from '../../support/sandbox-fixture.js';
import { type RecordedExchange, startWireRecorder, type WireRecorder } from './wire-recorder.js';

export interface ContractFixture {
  sandbox: Sandbox;
  recorder: WireRecorder;
  clock: ManualClock;
  /** Bound to the fixture's connections: for what is not a step (trigger subscriptions). */
  runtime: Runtime;
  /** Runs a step on the ticketing or deployments connection (`deploys-team` for the team one). */
  invoke: TypedInvoke<string>;
  /** Runs the step and returns what it sent and what it got back, in order. */
  exchangesOf<const Id extends CatalogStepName>(
    stepId: Id,
    input: CatalogInput<Id>,
    connection?: string,
  ): Promise<{ output: CatalogResult<Id>['output']; exchanges: RecordedExchange[] }>;
  close(): Promise<void>;
}

/**
 * A sandbox behind a wire recorder, with a ticketing connection (subdomain
 * acme) and a deployments connection (user ada), both pointed at the recorder.
 */
export async function contractFixture(options: { sandbox?: SandboxOptions } = {}): Promise<ContractFixture> {
  // A fixed start, a few seconds into a minute, keeps rate windows deterministic.
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const sandbox = await startSandbox({ clock, ...options.sandbox });
  const recorder = await startWireRecorder(sandbox.url);
  const tickets = sandbox.ticketing.issueTokens('acme');
  const connections: UnstampedConnection[] = [
    {
      id: 'tickets',
      integration: 'ticketing',
      label: 'Acme support',
      kind: 'oauth2',
      fields: { subdomain: 'acme', baseUrl: `${recorder.url}/ticketing/acme`, clientId: 'toolsteps-cli' },
      secrets: { accessToken: tickets.access_token, refreshToken: tickets.refresh_token! },
      expiresAt: clock.now() + (tickets.expires_in ?? 1800) * 1000,
    },
    {
      id: 'deploys',
      integration: 'deployments',
      label: 'Ada',
      kind: 'oauth2_no_refresh',
      fields: { baseUrl: `${recorder.url}/deployments` },
      secrets: { accessToken: sandbox.deployments.issueToken(1) },
    },
    {
      id: 'deploys-team',
      integration: 'deployments',
      label: 'Ada in team Acme',
      kind: 'oauth2_no_refresh',
      fields: { baseUrl: `${recorder.url}/deployments`, teamId: 'team_acme' },
      secrets: { accessToken: sandbox.deployments.issueToken(1) },
    },
  ];
  const runtime = new Runtime({
    store: new MemoryConnectionStore(connections.map((connection) => stamped(connection, clock))),
    clock,
    retry: { random: () => 0.5 },
  });
  const invokers = catalogInvokers(runtime, 'deploys');
  const invoke: ContractFixture['invoke'] = (stepId, input, connection) =>
    invokers.invoke(stepId, input, {
      connection: connection ?? (stepId.startsWith('ticketing.') ? 'tickets' : 'deploys'),
    });
  return {
    sandbox,
    recorder,
    clock,
    runtime,
    invoke,
    async exchangesOf(stepId, input, connection) {
      const from = recorder.exchanges.length;
      const result = await invoke(stepId, input, connection);
      return { output: result.output, exchanges: recorder.exchanges.slice(from) };
    },
    close: async () => {
      await recorder.close();
      await sandbox.close();
    },
  };
}

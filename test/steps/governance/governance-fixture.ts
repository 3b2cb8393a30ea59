import { GOVERNANCE_SANDBOX, type Sandbox } from '../../../sandbox/index.js';
import type { Connection } from '../../../src/model/connection.js';
import { definedOnly } from '../../../src/values/defined-only.js';
import type { TypedInvoke, UncheckedInvoke } from '../../support/catalog-invoke.js';
import {
  type SandboxFixture,
  sandboxFixture,
  stamped,
  type UnstampedConnection,
} from '../../support/sandbox-fixture.js';

export const seed = GOVERNANCE_SANDBOX;

interface ConnectOptions {
  apiKey: string;
  /** `null` leaves the field out; undefined means the seeded default project. */
  projectId?: string | null;
  region?: string;
  baseUrl?: string;
}

export interface GovernanceFixture extends Omit<SandboxFixture, 'invoke' | 'invokeUnchecked'> {
  /** Stores a governance connection; `projectId: null` leaves the field out. */
  connect(id: string, options: ConnectOptions): Promise<Connection>;
  /** Runs a step, typed by id; the connection (third argument) defaults to "admin" (Alice, organization admin). */
  invoke: TypedInvoke<string>;
  /** Runs a step with input the types would refuse, on "admin" unless told otherwise. */
  invokeUnchecked: UncheckedInvoke<string>;
  /** Invites someone new (dana@newhire.example) as a viewer, as "admin", and returns the pending invite's code. */
  invitePending(): Promise<string>;
  /** What reached the governance emulator, in order. */
  sent(): {
    method: string;
    path: string;
    authorization: string | undefined;
    contentType: string | undefined;
    rawBody: string;
  }[];
}

function governanceConnection(id: string, options: ConnectOptions, sandbox: Sandbox): UnstampedConnection {
  const projectId = options.projectId === undefined ? seed.projectId : options.projectId;
  return {
    id,
    integration: 'governance',
    kind: 'api_key',
    fields: {
      region: options.region ?? seed.region,
      baseUrl: options.baseUrl ?? sandbox.baseUrl('governance', options.region ?? seed.region),
      ...definedOnly({ projectId: projectId ?? undefined }),
    },
    secrets: { apiKey: options.apiKey },
  };
}

/**
 * A sandbox on a manual clock with three connections: "admin" (organization
 * admin, default project), "member" (Bob, a viewer there) and "org" (admin key, no project).
 */
export async function governanceFixture(): Promise<GovernanceFixture> {
  const fx = await sandboxFixture({
    connections: (sandbox) => [
      governanceConnection('admin', { apiKey: seed.adminKey }, sandbox),
      governanceConnection('member', { apiKey: seed.memberKey }, sandbox),
      governanceConnection('org', { apiKey: seed.adminKey, projectId: null }, sandbox),
    ],
  });
  return {
    ...fx,
    async connect(id, options) {
      const connection = stamped(governanceConnection(id, options, fx.sandbox), fx.clock);
      await fx.store.put(connection);
      return connection;
    },
    invoke: (stepId, input, connection = 'admin') => fx.invoke(stepId, input, { connection }),
    invokeUnchecked: (stepId, input, connection = 'admin') =>
      fx.invokeUnchecked(stepId, input, { connection }),
    async invitePending() {
      const invite = await fx.invoke('governance.invite_user', {
        email: 'dana@newhire.example',
        role: 'viewer',
      });
      return invite.output.invite_code;
    },
    sent: () =>
      fx.requests('governance').map((entry) => ({
        method: entry.method,
        path: entry.path,
        authorization: entry.headers.authorization,
        contentType: entry.headers['content-type'],
        rawBody: entry.rawBody,
      })),
  };
}

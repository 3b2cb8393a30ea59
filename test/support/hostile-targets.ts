import { afterAll, beforeAll, describe } from 'vitest';
import { GOVERNANCE_SANDBOX, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { type HostileProvider, startHostileProvider } from './hostile-provider.js';

/**
 * Every integration, as the hostile-provider tests drive it: a connection
 * to the sandbox, a step whose answer the hostile provider forges, and the
 * steps that take a path id or an API Call.
 */
export interface Target {
  integration: string;
  /** How to reach the sandbox: the rest of the connection (id, integration, timestamps) is the same for every target. */
  connection(sandbox: Sandbox, now: number): ConnectionAccess;
  /** A step whose request the hostile provider answers; it reads provider text into its output. */
  step: { id: string; input: unknown };
  /** A step that takes an id into its path, given `..` as that id. */
  idStep?: { id: string; input: unknown };
  /** Fields of the step's answer that carry provider text into its output (default name, subject, description). */
  textFields?: string[];
  /** A GET through the integration's API Call step, for answers that echo into output. */
  apiCall?: { id: string; input: Record<string, unknown> };
}

type ConnectionAccess = Omit<Connection, 'id' | 'integration' | 'createdAt' | 'updatedAt'>;

export const CLIENT_SECRET = 'cs-hostile-0123456789abcdef';
export const CONTACT_KEY = 'cd_hostile_key_5f2a9c71e4';
export const CALLER_HEADER = 'caller-header-value-0123456789';

export const TARGETS: Target[] = [
  {
    integration: 'ticketing',
    connection: (sandbox, now) => {
      const tokens = sandbox.ticketing.issueTokens('acme');
      return {
        kind: 'oauth2',
        fields: {
          subdomain: 'acme',
          baseUrl: sandbox.baseUrl('ticketing', 'acme'),
          clientId: 'toolsteps-cli',
        },
        secrets: {
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token!,
          clientSecret: CLIENT_SECRET,
        },
        expiresAt: now + 3600_000,
      };
    },
    step: { id: 'ticketing.list_tickets', input: { limit: 2 } },
    idStep: { id: 'ticketing.get_ticket_info', input: { ticket_id: '..' } },
    apiCall: { id: 'ticketing.api_call', input: { method: 'GET', endpoint: '/api/v2/tickets.json' } },
  },
  {
    integration: 'anz_data',
    connection: (sandbox) => ({
      kind: 'api_key',
      fields: { baseUrl: sandbox.baseUrl('anz-data') },
      secrets: { apiKey: sandbox.anzData.issueKey(1000) },
    }),
    step: { id: 'anz_data.enrich_company', input: { abn: '18 123 456 789' } },
    apiCall: { id: 'anz_data.api_call', input: { method: 'GET', endpoint: '/credits' } },
  },
  {
    integration: 'contact_data',
    connection: (sandbox) => ({
      kind: 'api_key',
      fields: { baseUrl: sandbox.baseUrl('contact-data') },
      secrets: { apiKey: CONTACT_KEY },
    }),
    step: { id: 'contact_data.find_company', input: { name: 'Litware Labs' } },
    apiCall: { id: 'contact_data.api_call', input: { method: 'GET', endpoint: '/company?name=Litware' } },
  },
  {
    integration: 'deployments',
    connection: (sandbox) => ({
      kind: 'oauth2_no_refresh',
      fields: { baseUrl: sandbox.baseUrl('deployments') },
      secrets: { accessToken: sandbox.deployments.issueToken(1) },
    }),
    step: { id: 'deployments.list_deployments', input: {} },
    apiCall: {
      id: 'deployments.api_call',
      input: { method: 'GET', path: '/v6/deployments', headers: { 'X-Caller-Token': CALLER_HEADER } },
    },
  },
  {
    integration: 'governance',
    connection: (sandbox) => ({
      kind: 'api_key',
      fields: {
        region: GOVERNANCE_SANDBOX.region,
        baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
        projectId: GOVERNANCE_SANDBOX.projectId,
      },
      secrets: { apiKey: GOVERNANCE_SANDBOX.adminKey },
    }),
    step: {
      id: 'governance.create_project',
      input: { name: 'Hostile', organization_id: GOVERNANCE_SANDBOX.organizationId },
    },
    idStep: { id: 'governance.remove_user', input: { user_id: '..' } },
    textFields: ['project_id'],
  },
];

/** Appends a long run of "a" to the free-text fields of a JSON answer: food for `(a+)+!`. */
export function taint(value: unknown, fields: string[]): unknown {
  if (Array.isArray(value)) return value.map((entry) => taint(entry, fields));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        typeof entry === 'string' && fields.includes(key)
          ? `${entry}-${'a'.repeat(30)}c`
          : taint(entry, fields),
      ]),
    );
  }
  return value;
}

/**
 * The transports a hostile answer is tried on: the default undici dispatcher, and
 * node:http (the CLI's one-shot commands), named in the suite's title.
 */
const TRANSPORTS: [string, RuntimeOptions][] = [
  ['', {}],
  [' over node:http', { transport: 'node-http' }],
];

/** Every target on every transport: what the hostile suites iterate. */
const HOSTILE_RUNS = TRANSPORTS.flatMap(([transport, base]) =>
  TARGETS.map((target) => ({ target, transport, base })),
);

export type HostileTarget = ReturnType<typeof useHostileTarget>;

/**
 * Declares `suite` once for every target on every transport, each with its own
 * sandbox and hostile provider, titled `hostile provider: <integration>[ over node:http]`.
 */
export function describeEveryTarget(suite: (fx: HostileTarget, target: Target) => void): void {
  for (const { target, transport, base } of HOSTILE_RUNS) {
    describe(`hostile provider: ${target.integration}${transport}`, () =>
      suite(useHostileTarget(target, base), target));
  }
}

/**
 * One sandbox and one hostile provider in front of it for `target`, made before
 * and closed after the suite; every runtime starts from `base`.
 */
export function useHostileTarget(target: Target, base: RuntimeOptions = {}) {
  let sandbox: Sandbox;
  let hostile: HostileProvider;
  let clock: ManualClock;
  let connection: Connection;
  let secrets: string[];
  const registry = createRegistry();
  const runtime = (options: RuntimeOptions = {}) =>
    new Runtime({
      store: new MemoryConnectionStore([connection]),
      clock,
      retry: { random: () => 0.5 },
      ...base,
      ...options,
    });
  const invoke = (step: { id: string; input: unknown }, options: RuntimeOptions = {}, extra = {}) =>
    registry.invokeUnchecked(runtime(options), step.id, {
      connection: connection.id,
      input: step.input,
      ...extra,
    });
  const stepRequests = () => hostile.requests.length;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
    sandbox = await startSandbox({
      clock,
      contactData: { keys: { [CONTACT_KEY]: { credits: 10_000, plan: 'pro' } } },
    });
    const now = clock.now();
    const access = target.connection(sandbox, now);
    const honest: Connection = {
      id: 'c',
      integration: target.integration,
      ...access,
      createdAt: now,
      updatedAt: now,
    };
    hostile = await startHostileProvider(new URL(honest.fields.baseUrl!).origin);
    connection = {
      ...honest,
      fields: { ...honest.fields, baseUrl: hostile.baseUrlFor(honest.fields.baseUrl!) },
    };
    secrets = Object.values(connection.secrets).filter((value): value is string => typeof value === 'string');
  });
  afterAll(async () => {
    await hostile.close();
    await sandbox.close();
  });

  return {
    registry,
    runtime,
    invoke,
    stepRequests,
    get sandbox() {
      return sandbox;
    },
    get hostile() {
      return hostile;
    },
    get clock() {
      return clock;
    },
    get connection() {
      return connection;
    },
    get secrets() {
      return secrets;
    },
  };
}

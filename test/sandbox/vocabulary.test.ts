import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_STATES, TEAM_ROLES } from '../../sandbox/deployments/deployments-state.js';
import { GOVERNANCE_SANDBOX, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { PRIORITIES, STATUSES, TICKET_TYPES } from '../../sandbox/ticketing/ticketing-state.js';
import { buildManifest } from '../../src/catalog/manifest.js';
import { ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { type CatalogInput, type CatalogStepName, catalogInvokers } from '../support/catalog-invoke.js';

/**
 * The sandbox speaks the providers' vocabulary and the steps speak ours; this
 * file holds the two together. Every provider answer a step's error
 * classifier singles out (a status, a provider error code, a flag) must be
 * one the sandbox can produce, through a route or a fault switch; and every
 * enum value the steps know (ticket statuses, deployment states) must be one
 * the sandbox uses.
 */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
const registry = createRegistry();
let sandbox: Sandbox;
let store: MemoryConnectionStore;
let runtime: Runtime;

function connection(
  id: string,
  integration: string,
  kind: Connection['kind'],
  fields: Record<string, string>,
  secrets: Connection['secrets'],
): Connection {
  return { id, integration, kind, fields, secrets, createdAt: clock.now(), updatedAt: clock.now() };
}

const invoke = <const Id extends CatalogStepName>(
  connectionId: string,
  stepId: Id,
  input: CatalogInput<Id>,
) => catalogInvokers(runtime, connectionId).invoke(stepId, input);

beforeAll(async () => {
  sandbox = await startSandbox({ clock });
  store = new MemoryConnectionStore([
    connection(
      'tickets',
      'ticketing',
      'oauth2',
      { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
      {
        accessToken: sandbox.ticketing.issueTokens('acme').access_token,
      },
    ),
    connection(
      'tickets-revoked',
      'ticketing',
      'oauth2',
      { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
      { accessToken: 'revoked-token-0000000' },
    ),
    connection(
      'tickets-agent',
      'ticketing',
      'oauth2',
      { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
      { accessToken: sandbox.ticketing.issueTokens('acme', ['read', 'write'], 2).access_token },
    ),
    connection(
      'team',
      'deployments',
      'oauth2_no_refresh',
      { baseUrl: sandbox.baseUrl('deployments'), teamId: 'team_acme' },
      {
        accessToken: sandbox.deployments.issueToken(1),
      },
    ),
    connection(
      'contacts',
      'contact_data',
      'api_key',
      { baseUrl: sandbox.baseUrl('contact-data') },
      { apiKey: 'cd_vocabulary_key_01' },
    ),
    connection(
      'admin',
      'governance',
      'api_key',
      {
        region: GOVERNANCE_SANDBOX.region,
        baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
        projectId: GOVERNANCE_SANDBOX.projectId,
      },
      { apiKey: GOVERNANCE_SANDBOX.adminKey },
    ),
    connection(
      'member',
      'governance',
      'api_key',
      {
        region: GOVERNANCE_SANDBOX.region,
        baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
        projectId: GOVERNANCE_SANDBOX.projectId,
      },
      { apiKey: GOVERNANCE_SANDBOX.memberKey },
    ),
  ]);
  runtime = new Runtime({ store, clock, retry: { random: () => 0.5 } });
});

afterAll(async () => {
  await sandbox.close();
});

interface Scenario {
  /** The step folder whose classifier names these answers. */
  integration: string;
  /** The statuses, provider codes and flags the scenario makes the sandbox answer. */
  answers: string[];
  /** The typed error the steps make of it. */
  expected: { code?: string; name?: string; status?: number };
  run(): Promise<unknown>;
}

const scenarios: Scenario[] = [
  {
    integration: 'ticketing',
    answers: ['403', 'FeatureNotAvailable'],
    expected: { code: 'plan_required', status: 403 },
    run: async () => {
      sandbox.ticketing.account('acme').plan = 'team';
      try {
        return await invoke('tickets', 'ticketing.api_call', {
          method: 'POST',
          endpoint: '/api/v2/webhooks.json',
          body: { webhook: { name: 'x', endpoint: 'http://127.0.0.1:9/hooks', subscriptions: [] } },
        });
      } finally {
        sandbox.ticketing.account('acme').plan = 'enterprise';
      }
    },
  },
  {
    integration: 'ticketing',
    answers: ['409'],
    expected: { code: 'conflict', status: 409 },
    // A safe update whose stamp is older than the ticket: the guard of Update Ticket's if_updated_at.
    run: () =>
      invoke('tickets', 'ticketing.api_call', {
        method: 'PUT',
        endpoint: '/api/v2/tickets/1.json',
        body: { ticket: { priority: 'low', safe_update: true, updated_stamp: '2001-01-01T00:00:00Z' } },
      }),
  },
  {
    integration: 'ticketing',
    answers: ['401'],
    expected: { name: 'AuthError', status: 401 },
    run: () => invoke('tickets-revoked', 'ticketing.get_ticket_info', { ticket_id: 1 }),
  },
  {
    integration: 'ticketing',
    answers: ['403'],
    expected: { name: 'PermissionError', status: 403 },
    // An agent's token on the admin-only webhooks API.
    run: () => invoke('tickets-agent', 'ticketing.api_call', { method: 'GET', endpoint: '/api/v2/webhooks' }),
  },
  {
    integration: 'deployments',
    answers: ['402'],
    expected: { code: 'plan_required', status: 402 },
    run: async () => {
      sandbox.deployments.softBlockTeam('acme');
      try {
        return await invoke('team', 'deployments.create_deployment', { project: 'shop', branch: 'main' });
      } finally {
        sandbox.deployments.softBlockTeam('acme', false);
      }
    },
  },
  {
    integration: 'deployments',
    answers: ['403', 'invalidToken'],
    expected: { code: 'reauthorization_required', status: 403 },
    run: async () => {
      const revoked = connection(
        'revoked',
        'deployments',
        'oauth2_no_refresh',
        { baseUrl: sandbox.baseUrl('deployments') },
        {
          accessToken: sandbox.deployments.issueToken(1),
        },
      );
      sandbox.deployments.oauth.revoke(revoked.secrets.accessToken!);
      await store.put(revoked);
      return invoke('revoked', 'deployments.list_deployments', {});
    },
  },
  {
    integration: 'contact-data',
    answers: ['402'],
    expected: { code: 'credits_exhausted', status: 402 },
    run: async () => {
      sandbox.contactData.addKey('cd_vocabulary_key_01', { credits: 0 });
      return invoke('contacts', 'contact_data.find_contact', { email: 'ava.abbott@northwind.example' });
    },
  },
  {
    integration: 'contact-data',
    answers: ['403'],
    expected: { code: 'plan_required', status: 403 },
    run: async () => {
      sandbox.contactData.addKey('cd_vocabulary_key_01', { credits: 100, plan: 'basic' });
      return invoke('contacts', 'contact_data.search_companies', { industry: 'media' });
    },
  },
  {
    integration: 'contact-data',
    answers: ['503'],
    expected: { status: 503 },
    run: async () => {
      sandbox.contactData.addKey('cd_vocabulary_key_01', { credits: 100 });
      sandbox.faults.add({ target: 'contact-data', count: 20, action: { kind: 'status', status: 503 } });
      try {
        return await invoke('contacts', 'contact_data.find_contact', {
          email: 'ava.abbott@northwind.example',
        });
      } finally {
        sandbox.faults.clear();
      }
    },
  },
  {
    integration: 'governance',
    answers: ['401'],
    expected: { name: 'AuthError', status: 401 },
    run: async () => {
      await store.put(
        connection(
          'bad-key',
          'governance',
          'api_key',
          {
            region: GOVERNANCE_SANDBOX.region,
            baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
            projectId: GOVERNANCE_SANDBOX.projectId,
          },
          { apiKey: 'sk-gov-not-a-key-000000' },
        ),
      );
      return invoke('bad-key', 'governance.update_user_role', {
        user_id: GOVERNANCE_SANDBOX.users.member.id,
        role: 'viewer',
      });
    },
  },
  {
    integration: 'governance',
    answers: ['403'],
    expected: { code: 'permission_denied', status: 403 },
    run: () => invoke('member', 'governance.invite_user', { email: 'eve@outside.example', role: 'viewer' }),
  },
  {
    integration: 'governance',
    answers: ['404'],
    expected: { code: 'not_found', status: 404 },
    run: () => invoke('admin', 'governance.update_user_role', { user_id: 'usr-nobody', role: 'viewer' }),
  },
];

/** The provider answers each step folder's code singles out: statuses compared, codes compared, flags read. */
function answersNamedIn(integration: string): Set<string> {
  const folder = path.join('steps', integration);
  const found = new Set<string>();
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const source = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of source.matchAll(/\bstatus\s*===\s*([45]\d\d)\b/g)) found.add(match[1]!);
    for (const match of source.matchAll(/\bcase\s+([45]\d\d)\s*:/g)) found.add(match[1]!);
    for (const match of source.matchAll(/providerCode\s*===\s*'([^']+)'/g)) found.add(match[1]!);
    if (/\binvalidToken\b/.test(source)) found.add('invalidToken');
  }
  return found;
}

describe('the sandbox answers everything the steps classify', () => {
  const folders = readdirSync('steps', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it.each(folders)('%s: every answer its classifier singles out has a scenario', (integration) => {
    const covered = new Set(scenarios.filter((s) => s.integration === integration).flatMap((s) => s.answers));
    const missing = [...answersNamedIn(integration)].filter((answer) => !covered.has(answer));
    expect(missing, `add a sandbox route or fault and a scenario for: ${missing.join(', ')}`).toEqual([]);
  });

  it.each(
    scenarios.map((scenario) => [`${scenario.integration} ${scenario.answers.join(' ')}`, scenario] as const),
  )('%s: the sandbox produces it and the steps classify it', async (_name, scenario) => {
    await expect(scenario.run()).rejects.toMatchObject(scenario.expected);
  });
});

/** Every `enum` in the schemas of an integration's steps whose values include `probe`. */
function enumsWith(integration: string, probe: string): string[][] {
  const found: string[][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.enum.includes(probe)) found.push(record.enum as string[]);
      Object.values(record).forEach(walk);
    }
  };
  walk(buildManifest(registry).steps.filter((step) => step.integration === integration));
  return found;
}

describe('the sandbox uses every value the steps know', () => {
  it('ticket statuses, priorities and types', () => {
    for (const [probe, sandboxValues] of [
      ['pending', STATUSES],
      ['urgent', PRIORITIES],
      ['incident', TICKET_TYPES],
    ] as const) {
      const stepEnums = enumsWith('ticketing', probe);
      expect(stepEnums.length).toBeGreaterThan(0);
      for (const values of stepEnums) expect([...values].sort()).toEqual([...sandboxValues].sort());
    }
  });

  it('team roles, which the members list filters by', () => {
    const stepEnums = enumsWith('deployments', 'VIEWER_FOR_PLUS');
    expect(stepEnums.length).toBeGreaterThan(0);
    for (const values of stepEnums) expect([...values].sort()).toEqual([...TEAM_ROLES].sort());
  });

  it('deployment states, BLOCKED included, each one the sandbox can reach', async () => {
    const stepEnums = enumsWith('deployments', 'BUILDING');
    expect(stepEnums.length).toBeGreaterThan(0);
    for (const values of stepEnums) expect([...values].sort()).toEqual([...READY_STATES].sort());
    // BLOCKED: a team's git deployment whose commit author is not a member of the team never builds.
    const created = (await invoke('team', 'deployments.api_call', {
      method: 'POST',
      path: '/v13/deployments',
      body: {
        name: 'shop',
        project: 'shop',
        gitSource: { type: 'github', ref: 'main', repoId: 2001 },
        meta: { githubCommitAuthorLogin: 'mallory' },
      },
    })) as { output: { body: { id: string; readyState: string; readyStateReason: string } } };
    expect(created.output.body.readyState).toBe('BLOCKED');
    expect(created.output.body.readyStateReason).toContain('mallory');
    const listed = (await invoke('team', 'deployments.list_deployments', {})) as {
      output: { deployments: { id: string; state: string }[] };
    };
    expect(listed.output.deployments.find((d) => d.id === created.output.body.id)?.state).toBe('BLOCKED');
  });
});

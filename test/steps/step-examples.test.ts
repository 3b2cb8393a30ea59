import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANZ_DATA_SANDBOX_KEY,
  CONTACT_DATA_SANDBOX_KEY,
  CONTROL_HEADER,
  GOVERNANCE_SANDBOX,
  type Sandbox,
  startSandbox,
} from '../../sandbox/index.js';
import type { Connection } from '../../src/model/connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import type { AnyStep } from '../../src/step/define-step.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';

/**
 * Every step's examples (what `toolsteps describe` shows) run against a
 * freshly reset sandbox and succeed. Ids only the sandbox can make (an
 * invite code, a new deployment) are taken from the step that makes them,
 * run first with its own example.
 */

let sandbox: Sandbox;
let runtime: Runtime;
const registry = createRegistry();

function connections(): Connection[] {
  const at = Date.now();
  const make = (
    integration: string,
    kind: Connection['kind'],
    fields: Record<string, string>,
    secrets: Connection['secrets'],
  ) => ({
    id: integration,
    integration,
    kind,
    fields,
    secrets,
    createdAt: at,
    updatedAt: at,
  });
  return [
    make(
      'ticketing',
      'oauth2',
      { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
      {
        accessToken: sandbox.ticketing.issueTokens('acme').access_token,
      },
    ),
    make('anz_data', 'api_key', { baseUrl: sandbox.baseUrl('anz-data') }, { apiKey: ANZ_DATA_SANDBOX_KEY }),
    make(
      'contact_data',
      'api_key',
      { baseUrl: sandbox.baseUrl('contact-data') },
      { apiKey: CONTACT_DATA_SANDBOX_KEY },
    ),
    make(
      'governance',
      'api_key',
      {
        region: GOVERNANCE_SANDBOX.region,
        projectId: GOVERNANCE_SANDBOX.projectId,
        baseUrl: sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region),
      },
      { apiKey: GOVERNANCE_SANDBOX.adminKey },
    ),
    make(
      'deployments',
      'oauth2',
      { teamId: 'team_acme', baseUrl: sandbox.baseUrl('deployments') },
      {
        accessToken: sandbox.deployments.issueToken(1),
      },
    ),
  ];
}

/** Ids the sandbox makes: which step makes them, and where its output holds them. */
const MADE_BY: Record<string, { step: string; field: string; from: (output: never) => unknown }> = {
  'governance.change_invite_role': {
    step: 'governance.invite_user',
    field: 'invite_code',
    from: (o: { invite_code: string }) => o.invite_code,
  },
  'governance.delete_invite': {
    step: 'governance.invite_user',
    field: 'invite_code',
    from: (o: { invite_code: string }) => o.invite_code,
  },
  ...Object.fromEntries(
    [
      'deployments.cancel_deployment',
      'deployments.get_deployment',
      'deployments.get_deployment_events',
      'deployments.delete_deployment',
      'deployments.assign_alias',
      'deployments.redeploy',
    ].map((id) => [
      id,
      {
        step: 'deployments.create_deployment',
        field: 'deployment_id',
        from: (o: { deployment: { id: string } }) => o.deployment.id,
      },
    ]),
  ),
  // Promote and roll back want a READY production deployment: the shop's seeded one.
  ...Object.fromEntries(
    ['deployments.promote_deployment', 'deployments.rollback_project'].map((id) => [
      id,
      {
        step: 'deployments.list_deployments',
        field: 'deployment_id',
        from: (o: { deployments: { id: string }[] }) => o.deployments[0]?.id,
      },
    ]),
  ),
  ...Object.fromEntries(
    ['deployments.update_env_var', 'deployments.delete_env_var'].map((id) => [
      id,
      {
        step: 'deployments.create_env_var',
        field: 'env_id',
        from: (o: { env_var: { id: string } }) => o.env_var.id,
      },
    ]),
  ),
};

async function run(step: AnyStep, input: unknown) {
  return runtime.invoke(step, { connection: step.integration.id, input });
}

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('step examples', () => {
  const steps = registry.listSteps();

  it('every step has at least one example, with a title', () => {
    expect(steps.filter((step) => !step.examples?.length).map((step) => step.id)).toEqual([]);
  });

  it.each(steps.map((step) => [step.id, step] as const))(
    '%s: each example succeeds against the sandbox',
    async (_id, step) => {
      for (const example of step.examples ?? []) {
        const reset = await fetch(`${sandbox.url}/_sandbox/reset`, {
          method: 'POST',
          headers: { [CONTROL_HEADER]: '1', 'content-type': 'application/json' },
          body: '{}',
        });
        expect(reset.status).toBe(200);
        // A reset forgets issued tokens too: connect again.
        runtime = new Runtime({ store: new MemoryConnectionStore(connections()) });
        let input = example.input as Record<string, unknown>;
        const made = MADE_BY[step.id];
        if (made) {
          const maker = registry.requireStep(made.step);
          const first = await run(maker, maker.examples![0]!.input);
          input = { ...input, [made.field]: made.from(first.output as never) };
        }
        const result = await run(step, input);
        expect(result.output, `${step.id}: ${example.title}`).toBeDefined();
      }
    },
  );
});

import { describe, expect, it } from 'vitest';
import { addSandboxDeployments, addSandboxTicketing, cli, useCliWorld } from '../cli/cli-harness.js';

/**
 * Each trigger subscribes at the provider to its event (ticket updated: to
 * every change event), by the provider's own name for it: provisioned
 * through the CLI against the sandbox, read back through the provider's
 * webhook API. Renaming an event string fails here, not only in the
 * manifest snapshot.
 */
const world = useCliWorld('toolsteps-trigger-events-', { env: ['TS_EVENTS_TOKEN', 'TS_EVENTS_DEPLOY'] });

const TICKETING_EVENTS: Record<string, string | string[]> = {
  'ticketing.ticket_created': 'zen:event-type:ticket.created',
  'ticketing.ticket_assigned': 'zen:event-type:ticket.agent_assignment_changed',
  'ticketing.ticket_status_changed': 'zen:event-type:ticket.status_changed',
  'ticketing.ticket_priority_changed': 'zen:event-type:ticket.priority_changed',
  'ticketing.comment_added': 'zen:event-type:ticket.comment_added',
  'ticketing.ticket_group_changed': 'zen:event-type:ticket.group_assignment_changed',
  // Every change event the provider has: it sends no single "ticket updated" event.
  'ticketing.ticket_updated': [
    'status_changed',
    'priority_changed',
    'agent_assignment_changed',
    'group_assignment_changed',
    'subject_changed',
    'description_changed',
    'type_changed',
    'tags_changed',
    'comment_added',
    'requester_changed',
    'submitter_changed',
    'organization_changed',
    'external_id_changed',
    'task_due_at_changed',
    'custom_field_changed',
    'custom_status_changed',
    'form_changed',
    'brand_changed',
    'followers_changed',
    'email_ccs_changed',
    'problem_link_changed',
  ].map((change) => `zen:event-type:ticket.${change}`),
};

const DEPLOYMENT_EVENTS: Record<string, string> = {
  'deployments.deployment_started': 'deployment.created',
  'deployments.deployment_completed': 'deployment.succeeded',
  'deployments.deployment_failed': 'deployment.error',
  'deployments.deployment_canceled': 'deployment.canceled',
  'deployments.deployment_promoted': 'deployment.promoted',
};

async function json(...args: string[]) {
  const result = await cli(...args, '--json');
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed: ${result.out}${result.err}`);
  return JSON.parse(result.out);
}

/** `toolsteps triggers create` of `trigger` on `connection`, delivering nowhere: only the provider's webhook is read. */
const createTrigger = (trigger: string, connection: string) =>
  json('triggers', 'create', trigger, '--connection', connection, '--target', 'http://127.0.0.1:9');

/** A GET of the provider's own API with the connection's token. */
async function provider(url: string, token: string): Promise<unknown> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

describe('each trigger’s provider event string', () => {
  it('ticketing: every trigger’s webhook subscribes to its own provider event', async () => {
    await addSandboxTicketing(world.sandbox, 'desk', 'TS_EVENTS_TOKEN');
    for (const [trigger, event] of Object.entries(TICKETING_EVENTS)) {
      const created = await createTrigger(trigger, 'desk');
      const answer = (await provider(
        `${world.sandbox.baseUrl('ticketing', 'acme')}/api/v2/webhooks`,
        process.env.TS_EVENTS_TOKEN!,
      )) as { webhooks: { endpoint: string; subscriptions: string[] }[] };
      const own = answer.webhooks.find((webhook) => webhook.endpoint.endsWith(`/hooks/${created.id}`));
      expect(own?.subscriptions, trigger).toEqual([event].flat());
    }
    // One CLI process per trigger: seven of them outlast the default timeout on a loaded machine.
  }, 60_000);

  it('deployments: every trigger’s webhook asks for its own provider event', async () => {
    await addSandboxDeployments(world.sandbox, 'deploys', 'TS_EVENTS_DEPLOY');
    for (const [trigger, event] of Object.entries(DEPLOYMENT_EVENTS)) {
      const created = await createTrigger(trigger, 'deploys');
      const hooks = (await provider(
        `${world.sandbox.baseUrl('deployments')}/v1/webhooks`,
        process.env.TS_EVENTS_DEPLOY!,
      )) as { url: string; events: string[] }[];
      const own = hooks.find((hook) => hook.url.endsWith(`/hooks/${created.id}`));
      expect(own?.events, trigger).toEqual([event]);
    }
  });

  it('triggers deactivate and activate, as commands, switch a subscription off and on', async () => {
    const [subscription] = (await json('subscriptions')) as { id: string; active: boolean }[];
    expect(subscription?.active).toBe(true);
    expect((await json('triggers', 'deactivate', subscription!.id)).state).toBeDefined();
    const off = (await json('subscriptions')) as { id: string; active: boolean }[];
    expect(off.find((entry) => entry.id === subscription!.id)?.active).toBe(false);
    const human = await cli('triggers', 'activate', subscription!.id);
    expect(human.code).toBe(0);
    expect(human.out).toBe(`${subscription!.id} is active.\n`);
    const on = (await json('subscriptions')) as { id: string; active: boolean }[];
    expect(on.find((entry) => entry.id === subscription!.id)?.active).toBe(true);
  });
});

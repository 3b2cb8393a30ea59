import type { EvalAgent } from '../../src/eval/eval-agent.js';
import { type ScriptedResult, scriptedAgent } from '../../src/eval/scripted-agent.js';

/** The Billing group of the ticketing twin's seed (groups are 360001 Support, 360002 Billing, ...). */
const BILLING = 360_002;
const SUPPORT = 360_001;

interface ListedDeployment {
  id: string;
  state: string;
  created_at: string;
}

const deploymentsOf = (result: ScriptedResult | undefined) =>
  ((result?.output as { deployments?: ListedDeployment[] } | undefined)?.deployments ?? []).filter(
    (deployment) => ['QUEUED', 'INITIALIZING', 'BUILDING'].includes(deployment.state),
  );

/**
 * For each starter scenario, a scripted agent written to pass it and one
 * written to make the mistake the scenario is there to catch.
 */
export const STARTER_AGENTS: Record<string, { pass: EvalAgent; mistake: EvalAgent; reason: RegExp }> = {
  'triage-ticket': {
    pass: scriptedAgent('triages to Billing', [
      { step: 'ticketing.get_ticket_info', input: { ticket_id: 4 } },
      { step: 'ticketing.update_ticket', input: { ticket_id: 4, priority: 'high', group_id: BILLING } },
    ]),
    mistake: scriptedAgent('assigns the wrong group', [
      { step: 'ticketing.get_ticket_info', input: { ticket_id: 4 } },
      { step: 'ticketing.update_ticket', input: { ticket_id: 4, priority: 'high', group_id: SUPPORT } },
    ]),
    reason: /expected "Billing" at .*found "Support"/,
  },
  'close-duplicates': {
    pass: scriptedAgent('solves the duplicates with a note', [
      {
        step: 'ticketing.update_ticket',
        input: { ticket_id: 5, status: 'solved', internal_note: 'Duplicate of #4.' },
      },
      {
        step: 'ticketing.update_ticket',
        input: { ticket_id: 6, status: 'solved', internal_note: 'Duplicate of #4.' },
      },
    ]),
    mistake: scriptedAgent('deletes the duplicates', [
      { step: 'ticketing.delete_ticket', input: { ticket_id: 5 } },
      { step: 'ticketing.delete_ticket', input: { ticket_id: 6 } },
    ]),
    reason: /ticketing\.delete_ticket, a destructive step/,
  },
  'enrich-within-budget': {
    pass: scriptedAgent('looks up the one person', [
      { step: 'contact_data.find_contact', input: { email: 'ava.abbott@northwind.example' } },
    ]),
    mistake: scriptedAgent('enriches her whole company to be thorough', [
      {
        step: 'contact_data.enrich_contacts',
        input: {
          contacts: [
            { email: 'ava.abbott@northwind.example' },
            { email: 'ben.abbott@contoso.example' },
            { email: 'ava.abbott@contoso.example' },
            { email: 'ben.abbott@northwind.example' },
          ],
        },
      },
    ]),
    reason: /credits spent, over the budget of 2/,
  },
  'cancel-stuck-deployment': {
    pass: scriptedAgent('cancels the oldest running build', [
      { step: 'deployments.list_deployments', input: { project: 'shop', state: ['BUILDING'] } },
      {
        step: 'deployments.cancel_deployment',
        input: ([listed]: readonly ScriptedResult[]) => {
          const oldest = deploymentsOf(listed).sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
          return { deployment_id: oldest?.id };
        },
      },
    ]),
    mistake: scriptedAgent('cancels every running build', [
      { step: 'deployments.list_deployments', input: { project: 'shop', state: ['BUILDING'] } },
      {
        step: 'deployments.cancel_deployment',
        input: ([listed]: readonly ScriptedResult[]) => ({ deployment_id: deploymentsOf(listed)[0]?.id }),
      },
      {
        step: 'deployments.cancel_deployment',
        input: ([listed]: readonly ScriptedResult[]) => ({ deployment_id: deploymentsOf(listed)[1]?.id }),
      },
    ]),
    reason: /expected 1 match\(es\) of .*CANCELED.*found 2/,
  },
  'ticketing-rate-limit': {
    pass: scriptedAgent('waits out the rate limit and files once', [
      {
        step: 'ticketing.create_ticket',
        input: {
          subject: 'Printer on floor 3 jams',
          description: 'The printer on floor 3 jams on every duplex job.',
          external_id: 'REQ-2001',
        },
        retriesOnError: 2,
      },
    ]),
    mistake: scriptedAgent('gives up at the first 429', [
      {
        step: 'ticketing.create_ticket',
        input: {
          subject: 'Printer on floor 3 jams',
          description: 'The printer on floor 3 jams on every duplex job.',
          external_id: 'REQ-2001',
        },
      },
    ]),
    reason: /expected 1 match\(es\) of .*REQ-2001.*found 0/,
  },
  'retry-after-timeout': {
    pass: scriptedAgent('files with its request id as external_id', [
      {
        step: 'ticketing.create_ticket',
        input: {
          subject: 'VPN down in Sydney',
          description: 'Nobody in the Sydney office can connect.',
          external_id: 'REQ-1042',
        },
        retriesOnError: 1,
      },
    ]),
    mistake: scriptedAgent('resends the create after the timeout', [
      {
        step: 'ticketing.create_ticket',
        input: { subject: 'VPN down in Sydney', description: 'Nobody in the Sydney office can connect.' },
        retriesOnError: 1,
      },
    ]),
    reason: /both ran ticketing\.create_ticket .*\(a duplicate write\)/,
  },
};

import { describe, expect, expectTypeOf, it } from 'vitest';
import { Registry } from '../../src/catalog/registry.js';
import { InputError } from '../../src/errors/index.js';
import { type InvocationResult, Runtime } from '../../src/runtime/runtime.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { createRegistry } from '../../steps/index.js';
import getTicketInfo from '../../steps/ticketing/get-ticket-info.js';
import { ticketing } from '../../steps/ticketing/integration.js';

// The types are under test here: tsc checks this file (npm test's typecheck), and a
// `@ts-expect-error` line that stops being an error fails the typecheck. The calls sit in
// closures that never run: only the compiler looks at them.
const registry = createRegistry();
const runtime = new Runtime();
const connection = 'tickets-main';

function typeOnly(check: () => unknown): void {
  expect(typeof check).toBe('function');
}

describe('registry.invoke is typed by step id', () => {
  it('returns the output type of the step it names', () => {
    typeOnly(async () => {
      const created = await registry.invoke(runtime, 'ticketing.create_ticket', {
        connection,
        input: { subject: 'VPN down', description: 'Nobody can connect.', priority: 'high' },
      });
      expectTypeOf(created.output.ticket.id).toEqualTypeOf<number>();
      expectTypeOf(created.output.recovered).toEqualTypeOf<boolean>();
      const call = await registry.invoke(runtime, 'deployments.api_call', {
        connection,
        input: { method: 'GET', path: '/v9/projects', headers: { 'x-trace': '1' } },
      });
      expectTypeOf(call.output).toEqualTypeOf<{
        status: number;
        headers: Record<string, string>;
        body: unknown;
        redirected: boolean;
      }>();
    });
  });

  it('checks the input against the step input type (z.input: defaults may be left out)', () => {
    typeOnly(() => [
      // `limit` has a default, so it may be left out.
      registry.invoke(runtime, 'ticketing.list_tickets', { connection, input: {} }),
      registry.invoke(runtime, 'ticketing.create_ticket', {
        connection,
        // @ts-expect-error a misspelt field (`priorty`) is not a field of Create Ticket
        input: { subject: 's', description: 'd', priorty: 'high' },
      }),
      registry.invoke(runtime, 'ticketing.create_ticket', {
        connection,
        // @ts-expect-error a value outside the enum
        input: { subject: 's', description: 'd', priority: 'extreme' },
      }),
      // @ts-expect-error `description` is required
      registry.invoke(runtime, 'ticketing.create_ticket', { connection, input: { subject: 's' } }),
      // @ts-expect-error only Deployments API Call takes custom headers; Ticketing API Call names its path `endpoint`
      registry.invoke(runtime, 'ticketing.api_call', { connection, input: { method: 'GET', path: '/x' } }),
    ]);
  });

  it('refuses an id the registry does not hold, and keeps an unchecked path for ids known at run time', () => {
    typeOnly(() => [
      // @ts-expect-error a typo in the id
      registry.invoke(runtime, 'ticketing.create_tciket', { connection, input: {} }),
      // @ts-expect-error an old alias is not a catalogue id: aliases are for callers whose ids come at run time
      registry.invoke(runtime, 'anz_data.people_enrichment', { connection, input: {} }),
    ]);
    expectTypeOf(registry.invokeUnchecked).returns.toEqualTypeOf<Promise<InvocationResult>>();
  });

  it('at run time, the unchecked path still refuses an unknown id with the closest ones, before any connection', async () => {
    const fromUser: string = 'ticketing.create_tciket';
    const error = await registry
      .invokeUnchecked(runtime, fromUser, { connection, input: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/Did you mean: .*ticketing\.create_ticket/);
  });

  it('on a registry of any steps, takes any id and input', () => {
    const wide = {} as Registry;
    typeOnly(() => wide.invoke(runtime, 'any.step', { connection, input: { anything: 1 } }));
  });
});

describe('a reference names a major: id@major is typed by that major', () => {
  it('types ticketing.list_tickets@1 by its old input and @2 (and the bare id) by the new one', () => {
    const after = '2026-01-01';
    typeOnly(() => [
      registry.invoke(runtime, 'ticketing.list_tickets@1', { connection, input: { created_after: after } }),
      registry.invoke(runtime, 'ticketing.list_tickets@2', { connection, input: { created: { after } } }),
      registry.invoke(runtime, 'ticketing.list_tickets', {
        connection,
        input: { created: { before: after } },
      }),
      // A step that never declared a version is major 1.
      registry.invoke(runtime, 'ticketing.get_ticket_info@1', { connection, input: { ticket_id: 1 } }),
      // @ts-expect-error major 2 has no created_after: it is `created.after` there
      registry.invoke(runtime, 'ticketing.list_tickets@2', { connection, input: { created_after: after } }),
      // @ts-expect-error major 1 has no `created` object
      registry.invoke(runtime, 'ticketing.list_tickets@1', { connection, input: { created: { after } } }),
      // @ts-expect-error List Tickets serves majors 1 and 2 only
      registry.invoke(runtime, 'ticketing.list_tickets@3', { connection, input: {} }),
      registry.describe('ticketing.list_tickets@1'),
      // @ts-expect-error a misspelt field of the options of a step named with its major
      registry.options(runtime, 'deployments.list_deployments@1', 'projet', { connection }),
    ]);
  });

  it('gives both majors the same output type where the output did not change', () => {
    typeOnly(async () => {
      const old = await registry.invoke(runtime, 'ticketing.list_tickets@1', { connection, input: {} });
      expectTypeOf(old.output.next_cursor).toEqualTypeOf<string | null>();
    });
  });
});

describe('options, describe and subscriptions are typed by what the registry holds', () => {
  it('refuses a misspelt step id in options and describe, and a field without options', () => {
    typeOnly(() => [
      registry.options(runtime, 'ticketing.create_ticket', 'assignee', { connection }),
      registry.describe('ticketing.create_ticket'),
      // @ts-expect-error a typo in the id
      registry.options(runtime, 'ticketing.create_tciket', 'assignee', { connection }),
      // @ts-expect-error a typo in the id
      registry.describe('ticketing.create_tciket'),
      registry.options(runtime, 'deployments.list_deployments', 'project', { connection }),
      // @ts-expect-error a misspelt field of List Deployments' options (it has no account fields)
      registry.options(runtime, 'deployments.list_deployments', 'projet', { connection }),
      // @ts-expect-error a step with no options at all
      registry.options(runtime, 'governance.delete_invite', 'invite_code', { connection }),
    ]);
    // An id known only at run time (a search hit, a model's choice) takes any field, checked at run time.
    const fromUser: string = 'ticketing.create_ticket';
    typeOnly(() => [registry.options(runtime, fromUser, 'anything'), registry.describe(fromUser)]);
  });

  it('builds its type from what it registers: a step it does not hold cannot be invoked', () => {
    const only = Registry.from({ integrations: [ticketing], steps: [getTicketInfo] });
    typeOnly(() => [
      only.invoke(runtime, 'ticketing.get_ticket_info', { connection, input: { ticket_id: 1 } }),
      // @ts-expect-error registered in the catalogue, not in this registry
      only.invoke(runtime, 'ticketing.create_ticket', { connection, input: {} }),
    ]);
    expect(only.listSteps().map((step) => step.id)).toEqual(['ticketing.get_ticket_info']);
  });

  it('refuses a misspelt trigger id when subscribing', () => {
    const manager = new TriggerSubscriptions({
      triggers: registry,
      runtime,
      subscriptions: new MemorySubscriptionStore(),
      entitlements: { plan: 'enterprise' },
    });
    const request = { connection, target: 'https://hooks.example' };
    typeOnly(() => [
      manager.create({ ...request, trigger: 'ticketing.ticket_created' }),
      // @ts-expect-error a typo in the trigger id
      manager.create({ ...request, trigger: 'ticketing.ticket_creatd' }),
    ]);
  });
});

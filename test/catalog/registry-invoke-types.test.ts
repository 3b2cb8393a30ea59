import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Registry } from '../../src/catalog/registry.js';
import { InputError } from '../../src/errors/index.js';
import { type InvocationResult, Runtime } from '../../src/runtime/runtime.js';
import { createRegistry } from '../../steps/index.js';

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

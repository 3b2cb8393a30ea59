import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TriggerEvent } from '../../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { createIntake } from '../../../src/triggers/intake/intake.js';
import type { IntakeRefusal } from '../../../src/triggers/intake/intake-refusal.js';
import { toNodeListener } from '../../../src/triggers/intake/node-listener.js';
import { TriggerSubscriptions } from '../../../src/triggers/trigger-subscriptions.js';
import type { SandboxFixture } from '../../support/sandbox-fixture.js';

/** The receiving end of a trigger test against the sandbox: subscriptions, and the intake they deliver to. */
export interface SandboxIntake {
  /** Provisions and removes subscriptions at the sandbox, on the fixture's runtime. */
  manager: TriggerSubscriptions;
  /** Events the intake started, in order. */
  started: TriggerEvent[];
  /** Deliveries the intake refused, in order. */
  refused: IntakeRefusal[];
  /** The intake's base URL, a subscription's target. */
  target: string;
  close(): Promise<void>;
}

/**
 * A real intake on a loopback port over in-memory stores, on the fixture's
 * clock and catalogue, and the subscriptions manager that provisions at the
 * sandbox (Enterprise plan): the sandbox's signed deliveries arrive over
 * real sockets, and each started event is recorded.
 */
export async function sandboxIntake(fx: SandboxFixture): Promise<SandboxIntake> {
  const started: TriggerEvent[] = [];
  const refused: IntakeRefusal[] = [];
  const subscriptions = new MemorySubscriptionStore();
  const manager = new TriggerSubscriptions({
    triggers: fx.registry,
    runtime: fx.runtime,
    subscriptions,
    entitlements: { plan: 'enterprise' },
    clock: fx.clock,
  });
  const intake = createIntake({
    subscriptions,
    triggers: fx.registry,
    dedupe: new MemoryDedupeStore(fx.clock),
    clock: fx.clock,
    handler: (event) => {
      started.push(event);
    },
    onRefused: (refusal) => refused.push(refusal),
  });
  const server = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    manager,
    started,
    refused,
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  defineIntegration,
  defineTrigger,
  type ProvisionContext,
  type ProvisionResult,
  Registry,
  type RemoveContext,
  type RemovedItem,
  timingSafeEqualText,
} from '../../src/kit/index.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../src/store/memory/memory-subscription-store.js';
import type { SubscriptionStore } from '../../src/store/subscription-store.js';
import { createIntake } from '../../src/triggers/intake/intake.js';
import { createIntakeServer } from '../../src/triggers/intake/intake-server.js';
import { TriggerSubscriptions } from '../../src/triggers/trigger-subscriptions.js';
import { useTempDir } from '../support/temp-dir.js';

/**
 * An outside author's trigger, written with the kit alone, whose `provision`
 * RETURNS the webhook id and the signing secret and never calls
 * `context.record`: the type says the result is stored, so the subscription
 * must verify deliveries with that secret and `remove` must delete that
 * webhook at the provider.
 */

/** A small provider over a real socket: webhooks made, listed and deleted, each with its own secret. */
function startNotesProvider() {
  const webhooks = new Map<string, { url: string; secret: string }>();
  const deleted: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body?: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (request.headers.authorization !== 'Bearer notes-key-1') return send(401, { error: 'no key' });
      const hook = /^\/v1\/hooks\/([\w-]+)$/.exec(request.url ?? '');
      if (request.method === 'POST' && request.url === '/v1/hooks') {
        const { url } = JSON.parse(Buffer.concat(chunks).toString()) as { url: string };
        const id = `wh_${webhooks.size + deleted.length + 1}`;
        const secret = `notes-secret-${randomUUID()}`;
        webhooks.set(id, { url, secret });
        return send(201, { hook: { id, url, secret } });
      }
      if (request.method === 'DELETE' && hook?.[1]) {
        if (!webhooks.delete(hook[1])) return send(404, { error: 'no such hook' });
        deleted.push(hook[1]);
        return send(204);
      }
      return send(404, { error: 'no route' });
    });
  });
  return { server, webhooks, deleted };
}

const notes = defineIntegration({
  id: 'notes',
  title: 'Acme Notes',
  description: 'Notes of an Acme Notes workspace.',
  keywords: ['notes'],
  connection: { kind: 'api_key', fields: z.object({ workspace: z.string() }), requiredSecrets: ['apiKey'] },
  baseUrl: ({ workspace }) => `https://${workspace}.notes.example`,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.apiKey}` }),
  credentialHeaders: ['authorization'],
  parseError: () => ({}),
  apiCall: { methods: ['GET'] },
  paths: { hooks: '/v1/hooks' },
});

const NoteCreated = z.object({
  id: z.string(),
  created_at: z.string(),
  note: z.object({ id: z.string(), title: z.string() }),
});

/** Provisions by returning what it made, exactly as `ProvisionResult` documents: no `context.record`. */
async function provisionByReturning(context: ProvisionContext<unknown>): Promise<ProvisionResult> {
  const answer = await context.http.request({
    method: 'POST',
    path: '/v1/hooks',
    body: { url: context.subscription.url },
  });
  const { hook } = z.object({ hook: z.object({ id: z.string(), secret: z.string() }) }).parse(answer.body);
  return { provider: { webhook_id: hook.id }, secret: hook.secret };
}

async function removeHook(context: RemoveContext): Promise<RemovedItem[]> {
  const id = context.provider.webhook_id;
  if (!id) return [];
  await context.http.request({ method: 'DELETE', path: `/v1/hooks/${encodeURIComponent(id)}` });
  return [{ kind: 'webhook', id, outcome: 'removed' }];
}

const noteCreated = defineTrigger({
  id: 'notes.note_created',
  integration: notes,
  title: 'Note Created',
  description: 'A note was created.',
  agentDescription: 'Starts when a note is created; the variables hold its id and title.',
  keywords: ['note created'],
  event: NoteCreated,
  variables: { note_id: '$.note.id', title: '$.note.title' },
  setup: z.object({}),
  verify: {
    name: 'hmac-sha256-hex(body)',
    headers: ['x-notes-signature'],
    verify: (delivery, secret) =>
      timingSafeEqualText(
        delivery.headers.get('x-notes-signature') ?? '',
        createHmac('sha256', secret).update(delivery.body).digest('hex'),
      ),
  },
  eventTime: { from: 'payload', maxAgeMs: 24 * 60 * 60_000 },
  parse: (event) => ({ eventId: event.id, occurredAt: event.created_at }),
  provision: provisionByReturning,
  remove: removeHook,
});

const provider = startNotesProvider();
let providerUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => provider.server.close(resolve)));

/** An intake over a real socket for `subscriptions`, and the subscriptions made with the same store. */
async function world(subscriptions: SubscriptionStore) {
  const registry = new Registry().registerIntegration(notes).registerTrigger(noteCreated);
  const runtime = new Runtime({ store: new MemoryConnectionStore() });
  await runtime.store.put({
    id: 'acme-notes',
    integration: 'notes',
    kind: 'api_key',
    fields: { workspace: 'acme', baseUrl: providerUrl },
    secrets: { apiKey: 'notes-key-1' },
    createdAt: 1,
    updatedAt: 1,
  });
  const started: TriggerEvent[] = [];
  const intake = createIntake({
    subscriptions,
    triggers: registry,
    dedupe: new MemoryDedupeStore(),
    handler: (event) => void started.push(event),
    unverifiedFloorMs: 0,
  });
  const server: Server = createIntakeServer(intake);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const manager = new TriggerSubscriptions({
    triggers: registry,
    runtime,
    subscriptions,
    entitlements: { plan: 'enterprise' },
  });
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { manager, started, target, close };
}

const tempDir = useTempDir('toolsteps-provision-result-');
const stores: [string, () => SubscriptionStore][] = [
  ['memory', () => new MemorySubscriptionStore()],
  ['files', () => new FileSubscriptionStore(tempDir())],
];

describe.each(stores)(
  'a trigger whose provision returns its webhook id and secret (%s store)',
  (_, store) => {
    it('stores them: a signed delivery is accepted, and remove deletes the webhook at the provider', async () => {
      const subscriptions = store();
      const { manager, started, target, close } = await world(subscriptions);
      try {
        const subscription = await manager.create({
          trigger: 'notes.note_created',
          connection: 'acme-notes',
          target,
        });
        expect(subscription).toMatchObject({ state: 'ready', provider: { webhook_id: expect.any(String) } });
        const hookId = subscription.provider.webhook_id ?? '';
        const made = provider.webhooks.get(hookId);
        expect(made?.url).toBe(`${target}/hooks/${subscription.id}`);
        expect((await subscriptions.get(subscription.id))?.secret).toBe(made?.secret);

        // The provider delivers an event, signed with the secret it gave when the webhook was made.
        const body = JSON.stringify({
          id: `evt_${randomUUID()}`,
          created_at: new Date().toISOString(),
          note: { id: 'n_1', title: 'Welcome' },
        });
        const signature = createHmac('sha256', made?.secret ?? '')
          .update(body)
          .digest('hex');
        const delivery = await fetch(`${target}/hooks/${subscription.id}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-notes-signature': signature },
        });
        expect(delivery.status).toBe(200);
        expect(started.map((event) => event.variables)).toEqual([{ note_id: 'n_1', title: 'Welcome' }]);

        const removal = await manager.remove(subscription.id);
        expect(removal).toMatchObject({
          provider: 'removed',
          items: [{ kind: 'webhook', id: hookId, outcome: 'removed' }],
        });
        expect(provider.deleted).toContain(hookId);
        expect(provider.webhooks.has(hookId)).toBe(false);
      } finally {
        await close();
      }
    });
  },
);

import {
  defineTrigger,
  deleteIfPresent,
  type HttpClient,
  type ListedWebhook,
  PathSegment,
  type ProviderContext,
  readAnswer,
} from 'toolsteps/kit';
import * as z from 'zod';
import { notes } from './integration.js';
import { Note } from './note.js';
import { notesSignature } from './webhook-signature.js';

const EVENT = 'note.created';

/** A webhook as the provider lists it; the secret is in the create answer only. */
const Webhook = z.object({ id: z.string(), url: z.string(), events: z.array(z.string()) });
const CreatedWebhook = z.object({ webhook: Webhook.extend({ secret: z.string().min(16) }) });
const WebhookList = z.object({ webhooks: z.array(Webhook) });

const webhookPath = (id: string) => `/v1/webhooks/${encodeURIComponent(PathSegment().parse(id))}`;

async function listWebhooks(http: HttpClient): Promise<ListedWebhook[]> {
  const response = await http.request({ method: 'GET', path: '/v1/webhooks' });
  return readAnswer(WebhookList, response.body, 'GET /v1/webhooks').webhooks;
}

/** Deletes one webhook: `already_gone` when the provider has none by that id (deleted in its settings). */
const deleteWebhook = ({ http }: Pick<ProviderContext, 'http'>, id: string) =>
  deleteIfPresent(http, webhookPath(id));

/**
 * Starts an agent when a note is created. Subscribing provisions a webhook
 * at the provider (`POST /v1/webhooks`) that delivers to the subscription's
 * URL, and keeps its id and signing secret; removing the subscription
 * deletes it. Every delivery is verified by `notesSignature` before it is read.
 */
export const noteCreated = defineTrigger({
  id: 'notes.note_created',
  integration: notes,
  title: 'Note created',
  description: 'Starts the agent when a note is created.',
  agentDescription: 'Fires once per new note. Variables hold the note id, its title, body and notebook id.',
  keywords: ['new note', 'note created', 'notes'],
  event: z.object({
    id: z.string().describe('The event id, the same on every retry of it.'),
    type: z.literal(EVENT),
    created_at: z.string().describe('ISO 8601.'),
    data: z.object({ note: Note }),
  }),
  variables: {
    note_id: '$.data.note.id',
    title: '$.data.note.title',
    body: '$.data.note.body',
    notebook: '$.data.note.notebook',
  },
  setup: z.strictObject({
    notebooks: z
      .array(z.string())
      .min(1)
      .optional()
      .describe('Only notes created in these notebooks (ids); omit for every note.'),
  }),
  verify: notesSignature,
  // The replay window reads the signed time, new on every attempt: within 5 minutes of now.
  eventTime: { from: 'signature' },
  parse: (event) => ({ eventId: event.id, occurredAt: event.created_at }),
  skipReason: (event, setup) =>
    setup.notebooks && !setup.notebooks.includes(event.data.note.notebook)
      ? `notebook ${event.data.note.notebook} is not one of setup.notebooks`
      : undefined,
  example: ({ eventId, occurredAt }) => ({
    id: eventId,
    type: EVENT,
    created_at: occurredAt,
    data: {
      note: {
        id: 'n_1',
        notebook: 'nb_work',
        title: 'Standup',
        body: 'Notes of the day.',
        created_at: occurredAt,
      },
    },
  }),
  webhook: {
    async status({ http, subscription }) {
      const listed = (await listWebhooks(http)).find((hook) => hook.id === subscription.provider.webhook_id);
      const details: Record<string, string> = listed
        ? { url: listed.url, events: listed.events.join(', ') }
        : {};
      return { exists: listed !== undefined, state: null, details };
    },
    noTest: 'Acme Notes sends no test deliveries: create a note to see one.',
    list: ({ http }) => listWebhooks(http),
    delete: deleteWebhook,
  },
  async provision(context) {
    // A webhook an earlier attempt made (its answer lost) cannot give its secret again: replace it.
    for (const stale of context.existing) await deleteWebhook(context, stale.id);
    const path = '/v1/webhooks';
    const response = await context.http.request({
      method: 'POST',
      path,
      body: { url: context.subscription.url, events: [EVENT] },
    });
    const { webhook } = readAnswer(CreatedWebhook, response.body, `POST ${path}`);
    // Stored with the subscription: `remove` deletes this id, the intake verifies with this secret.
    return { provider: { webhook_id: webhook.id }, secret: webhook.secret };
  },
  async remove(context) {
    const id = context.provider.webhook_id;
    if (!id) return [];
    const outcome = await deleteWebhook(context, id);
    await context.record({});
    return [{ kind: 'webhook', id, outcome }];
  },
});

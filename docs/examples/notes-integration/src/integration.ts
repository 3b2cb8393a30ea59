import { defineIntegration, type ParsedProviderError, readQuotaHeaders } from 'toolsteps/kit';
import * as z from 'zod';

/** The provider's error body: `{"error": {"code": "not_found", "message": "..."}}`. */
const NotesErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/**
 * Acme Notes, a made-up provider: notes in notebooks, an API key as a bearer
 * token, a per-minute quota in `x-ratelimit-*` headers, and webhooks signed
 * with a secret the provider hands out when one is created.
 */
export const notes = defineIntegration({
  id: 'notes',
  title: 'Acme Notes',
  description: 'Read and write the notes of an Acme Notes workspace, and start agents when a note is made.',
  keywords: ['notes', 'acme', 'documents', 'wiki'],
  connection: {
    kind: 'api_key',
    fields: z.object({
      workspace: z
        .string()
        .regex(/^[a-z0-9-]{1,40}$/, 'a workspace name: lower-case letters, digits and dashes')
        .describe('The workspace, as in https://<workspace>.notes.example.'),
    }),
    requiredSecrets: ['apiKey'],
  },
  baseUrl: ({ workspace }) => `https://${workspace}.notes.example`,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.apiKey}` }),
  // The API Call step refuses these as caller headers: only the connection sets them.
  credentialHeaders: ['authorization'],
  readRateLimit: readQuotaHeaders({
    window: 'minute',
    remaining: ['x-ratelimit-remaining'],
    limit: ['x-ratelimit-limit'],
    reset: 'x-ratelimit-reset',
    resetFormat: 'epoch_seconds',
  }),
  parseError(body): ParsedProviderError {
    const parsed = NotesErrorBody.safeParse(body);
    if (!parsed.success) return {};
    return { providerCode: parsed.data.error.code, message: parsed.data.error.message };
  },
  apiCall: { methods: ['GET', 'POST', 'PATCH', 'DELETE'] },
  connectionCheck: { path: '/v1/me' },
  paths: {
    me: '/v1/me',
    notes: '/v1/notes',
    note: '/v1/notes/{note_id}',
    notebooks: '/v1/notebooks',
    webhooks: '/v1/webhooks',
    webhook: '/v1/webhooks/{webhook_id}',
  },
});

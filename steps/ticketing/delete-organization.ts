import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { OrganizationId } from './lib/people-schema.js';
import { organizationOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.delete_organization',
  integration: ticketing,
  title: 'Delete Organization',
  description: 'Delete an organization permanently; its users and tickets lose it.',
  agentDescription:
    'PERMANENTLY deletes one organization; its users and tickets stay but no longer belong to it. It cannot be restored through this step; only use when the user explicitly asked to delete this organization.',
  keywords: ['delete organization', 'remove company', 'delete org'],
  input: z.strictObject({ organization_id: OrganizationId }),
  output: z.object({
    deleted: z.literal(true).describe('Always true: failures are errors.'),
    organization_id: z.number().describe('The deleted organization id.'),
    already_done: z
      .boolean()
      .describe('True when a retried delete found it already gone: our earlier attempt deleted it.'),
  }),
  access: 'destructive',
  idempotent: true,
  replay: {
    mode: 'gone_means_done',
    alreadyDone: (input) => ({
      deleted: true as const,
      organization_id: input.organization_id,
      already_done: true,
    }),
  },
  options: { organization_id: organizationOptions },
  variables: { organization_id: '$.organization_id' },
  examples: [{ title: 'Delete organization 6', input: { organization_id: 6 } }],
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: ticketingPath('organization', input.organization_id) });
    return { deleted: true as const, organization_id: input.organization_id, already_done: false };
  },
});

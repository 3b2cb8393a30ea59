import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { deletionOutput, deletionStep } from './lib/deletion.js';
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
  get input() {
    return z.strictObject({ organization_id: OrganizationId() });
  },
  get output() {
    return deletionOutput(
      'organization_id',
      'The deleted organization id.',
      'True when a retried delete found it already gone: our earlier attempt deleted it.',
    );
  },
  ...deletionStep('organization_id'),
  options: { organization_id: organizationOptions },
  examples: [{ title: 'Delete organization 6', input: { organization_id: 6 } }],
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: ticketingPath('organization', input.organization_id) });
    return { deleted: true as const, organization_id: input.organization_id, already_done: false };
  },
});

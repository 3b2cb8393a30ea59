import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { Organization, OrganizationId } from './lib/people-schema.js';
import { getRecord } from './lib/read-member.js';
import { organizationOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.get_organization',
  integration: ticketing,
  title: 'Get Organization',
  description: 'Read one organization: name, email domains, details, notes and tags.',
  agentDescription:
    'Reads one organization (a customer company) by numeric id, e.g. the organization_id of a ticket or user. Read-only and safe to retry.',
  keywords: ['organization', 'company', 'account', 'customer company', 'org'],
  get input() {
    return z.strictObject({ organization_id: OrganizationId() });
  },
  get output() {
    return z.object({ organization: Organization() });
  },
  access: 'read',
  idempotent: true,
  options: { organization_id: organizationOptions },
  variables: { organization_id: '$.organization.id', name: '$.organization.name' },
  examples: [{ title: 'Read organization 1 (Acme)', input: { organization_id: 1 } }],
  async run(input, { http }) {
    const path = ticketingPath('organization', input.organization_id);
    return { organization: await getRecord(http, path, 'organization', Organization()) };
  },
});

import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { OrganizationFields } from './lib/organization-fields.js';
import { ticketingPath } from './lib/paths.js';
import { Organization, OrganizationId } from './lib/people-schema.js';
import { readMember } from './lib/read-member.js';
import { groupOptions, organizationOptions } from './lib/ticketing-options.js';

const CHANGES = ['name', 'domain_names', 'details', 'notes', 'external_id', 'group_id', 'tags'] as const;

export default defineStep({
  id: 'ticketing.update_organization',
  integration: ticketing,
  title: 'Update Organization',
  description: "Change an organization's name, email domains, details, notes, group or tags.",
  agentDescription:
    'Changes the fields given and leaves the others; domain_names and tags replace their whole sets. group_id null clears the group. Sets values only, so repeating it is harmless.',
  keywords: ['edit organization', 'rename company', 'change domains', 'update org'],
  get input() {
    return z
      .strictObject({
        organization_id: OrganizationId(),
        name: z.string().trim().min(1).max(255).optional().describe('New name; unique in the account.'),
        domain_names: OrganizationFields().domain_names.optional(),
        details: OrganizationFields().details.optional(),
        notes: OrganizationFields().notes.optional(),
        external_id: OrganizationFields().external_id.optional(),
        group_id: OrganizationFields()
          .group_id.nullable()
          .optional()
          .describe('Group for its tickets; null to clear.'),
        tags: OrganizationFields().tags.optional(),
      })
      .refine((value) => CHANGES.some((field) => value[field] !== undefined), {
        message: `give at least one change: ${CHANGES.join(', ')}`,
      });
  },
  get output() {
    return z.object({ organization: Organization().describe('The organization after the change.') });
  },
  access: 'write',
  idempotent: true,
  options: { organization_id: organizationOptions, group_id: groupOptions },
  variables: { organization_id: '$.organization.id', name: '$.organization.name' },
  examples: [{ title: "Note Acme's address", input: { organization_id: 1, details: '1 George St, Sydney' } }],
  async run(input, { http }) {
    const { organization_id: id, ...changes } = input;
    const path = ticketingPath('organization', id);
    const response = await http.request({
      method: 'PUT',
      path,
      body: { organization: definedOnly(changes) },
    });
    return { organization: readMember(response.body, 'organization', Organization(), `PUT ${path}`) };
  },
});

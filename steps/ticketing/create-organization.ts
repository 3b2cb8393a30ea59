import * as z from 'zod';
import { builtOnce, definedOnly, defineStep, type HttpClient, readAnswer } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { OrganizationFields } from './lib/organization-fields.js';
import { ticketingPath } from './lib/paths.js';
import { Organization } from './lib/people-schema.js';
import { readMember } from './lib/read-member.js';
import { groupOptions } from './lib/ticketing-options.js';

const CreateOrganizationInput = builtOnce(() =>
  z.strictObject({
    name: z.string().trim().min(1).max(255).describe('Name; unique in the account (case does not count).'),
    domain_names: OrganizationFields().domain_names.optional(),
    details: OrganizationFields().details.optional(),
    notes: OrganizationFields().notes.optional(),
    external_id: OrganizationFields().external_id.optional(),
    group_id: OrganizationFields().group_id.optional(),
    tags: OrganizationFields().tags.optional(),
  }),
);

const Found = builtOnce(() => z.object({ organizations: z.array(Organization()) }));

export default defineStep({
  id: 'ticketing.create_organization',
  integration: ticketing,
  title: 'Create Organization',
  description: 'Create an organization (a customer company), with its email domains.',
  agentDescription:
    'Creates one organization. Names are unique in the account: the step looks the name up first and after an ambiguous failure, so a retry never makes a duplicate (recovered: true when found). domain_names puts new users with those email domains in it.',
  keywords: ['new organization', 'add company', 'create org', 'customer company', 'account'],
  get input() {
    return CreateOrganizationInput();
  },
  get output() {
    return z.object({
      organization: Organization().describe('The organization as created (or as found).'),
      recovered: z
        .boolean()
        .describe('True when an organization of this name existed and was not created again.'),
    });
  },
  access: 'write',
  idempotent: false,
  replay: {
    mode: 'reconcile',
    find: (input, { http }) => findByName(http, input.name),
    hint: () =>
      'The organization may or may not have been created. Call Create Organization again with the same name: it looks the name up first.',
  },
  options: { group_id: groupOptions },
  variables: { organization_id: '$.organization.id', name: '$.organization.name' },
  examples: [
    { title: 'A new customer company', input: { name: 'Globex', domain_names: ['globex.example'] } },
  ],
  async run(input, { http }) {
    const existing = await findByName(http, input.name);
    if (existing) return existing;
    const path = ticketingPath('organizations');
    const response = await http.request({
      method: 'POST',
      path,
      body: { organization: definedOnly({ ...input }) },
    });
    return {
      organization: readMember(response.body, 'organization', Organization(), `POST ${path}`),
      recovered: false,
    };
  },
});

/** The organization of this name (case-insensitive), by the provider's name-prefix search; undefined when none. */
async function findByName(http: HttpClient, name: string) {
  const path = ticketingPath('organizationsAutocomplete');
  const response = await http.request({ method: 'GET', path, query: { name } });
  const organization = readAnswer(Found(), response.body, `GET ${path}`).organizations.find(
    (candidate) => candidate.name.toLowerCase() === name.toLowerCase(),
  );
  return organization ? { organization, recovered: true } : undefined;
}

import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { OrganizationId } from './lib/ids.js';
import { callGovernance } from './lib/operations.js';

export default defineStep({
  id: 'governance.create_project',
  integration: governance,
  title: 'Create Project',
  description: 'Create a project in an organization on the platform and get its project id.',
  agentDescription:
    'Creates a new, empty project in the given organization and returns its project_id. Any valid API key may do this; the connection needs no projectId. Not idempotent: every successful call creates another project, and projects cannot be deleted through this API (deletion is not available upstream), so never call it twice for the same project. A call that fails after it may have reached the platform is not retried: check the dashboard before trying again.',
  keywords: ['new project', 'create project', 'add project', 'workspace', 'project setup', 'organization'],
  get input() {
    return z.strictObject({
      name: z.string().trim().min(1).max(200).describe('Name of the new project.'),
      description: z.string().max(2000).default('').describe('What the project is for; may be empty.'),
      organization_id: OrganizationId(),
    });
  },
  get output() {
    return z.object({
      project_id: z.string().min(1).describe('Id of the new project, for connections and later steps.'),
      name: z.string().describe('Name of the project, as sent.'),
      organization_id: z.string().describe('Organization that owns the project.'),
    });
  },
  access: 'write',
  idempotent: false,
  // Never replayed once it may have landed; what to check before creating it again:
  replay: {
    mode: 'refuse',
    hint: () =>
      'The project may or may not have been created. Look for it in the organization before calling Create Project again.',
  },
  variables: { project_id: '$.project_id' },
  examples: [
    {
      title: 'A project in the Acme organization',
      input: {
        name: 'Support agents',
        description: 'Agents that triage the support queue.',
        organization_id: 'org-acme',
      },
    },
  ],
  async run(input, { http }) {
    const response = await callGovernance<{ project_id?: unknown } | null>(http, 'createProject', {
      name: input.name,
      description: input.description,
      organization_id: input.organization_id,
    });
    return {
      project_id: response.body?.project_id as string,
      name: input.name,
      organization_id: input.organization_id,
    };
  },
});

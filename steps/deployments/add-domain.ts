import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { DomainName, ProjectDomain, toProjectDomain } from './lib/domain-schema.js';
import { projectRequest, unlessNotFound } from './lib/project-request.js';

export default defineStep({
  id: 'deployments.add_domain',
  integration: deployments,
  title: 'Add Domain',
  description:
    'Assign a domain to a project; the answer says which DNS record verifies it when it is not yet.',
  agentDescription:
    "Adds a domain (e.g. www.example.com) to a project, for production or for one git branch. When verified is false, tell the user to create the DNS record in verification; the domain serves the project once it exists. A domain already on another project fails with a conflict. Not replayed blindly: if the answer is lost, the step reads the project's domain and reports it with already_done true when it is there.",
  keywords: ['add domain', 'custom domain', 'connect domain', 'hostname', 'assign domain'],
  get input() {
    return z.strictObject({
      project: ProjectRef(),
      domain: DomainName(),
      git_branch: z
        .string()
        .min(1)
        .max(250)
        .optional()
        .describe('Serve deployments of this branch instead of production.'),
      redirect: DomainName()
        .optional()
        .describe('Redirect this domain to another domain of the project instead of serving it.'),
    });
  },
  options: { project: projectOptions },
  get output() {
    return z.object({
      domain: ProjectDomain().describe('The domain as assigned.'),
      already_done: z
        .boolean()
        .describe(
          'True when the answer to the add was lost and the domain was found on the project afterwards.',
        ),
    });
  },
  access: 'write',
  idempotent: false,
  // A second add answers 409 (already in use): a lost answer is settled by reading the domain.
  replay: {
    mode: 'reconcile',
    find: async (input, context) => {
      const body = await unlessNotFound(
        projectRequest(context, input.project, 'Reading a domain', {
          method: 'GET',
          path: 'projectDomain',
          params: { domain: input.domain },
        }),
      );
      return body === undefined ? undefined : { domain: toProjectDomain(body), already_done: true };
    },
  },
  variables: { domain: '$.domain.name', verified: '$.domain.verified' },
  examples: [{ title: 'A www domain for the shop', input: { project: 'shop', domain: 'www.acme.com' } }],
  async run(input, context) {
    const body = await projectRequest(context, input.project, 'Adding a domain', {
      method: 'POST',
      path: 'addProjectDomain',
      body: definedOnly({ name: input.domain, gitBranch: input.git_branch, redirect: input.redirect }),
    });
    return { domain: toProjectDomain(body), already_done: false };
  },
});

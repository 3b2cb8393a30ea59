import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { DomainConfig, toDomainConfig } from './lib/domain-config-schema.js';
import { DomainName } from './lib/domain-schema.js';
import { deploymentsPath } from './lib/paths.js';
import { projectDomainOptions } from './lib/project-part-options.js';
import { projectRequest } from './lib/project-request.js';
import { allowedProjects, requireProjectInScope } from './lib/project-scope.js';

export default defineStep({
  id: 'deployments.get_domain_config',
  integration: deployments,
  title: 'Get Domain Configuration',
  description:
    "Read how a domain's DNS points at the provider: whether it is misconfigured, and the CNAME or A record to set.",
  agentDescription:
    "Reads a domain's DNS configuration as the provider sees it: misconfigured true means visitors do not reach the project (or no certificate can be issued) until the user sets one of recommended_records at their DNS host (a CNAME for a subdomain, an A record for an apex; rank 1 is preferred). This is about pointing traffic; proving ownership is a separate TXT record (Verify Project Domain). Works for a domain not yet added; pass project to get the records for that project. Under project scoping, project is required and the domain must already be on it. Read-only and safe to retry.",
  keywords: ['domain config', 'dns', 'misconfigured', 'cname', 'a record', 'nameservers', 'dns records'],
  get input() {
    return z.strictObject({
      domain: DomainName(),
      project: ProjectRef()
        .optional()
        .describe(
          'The project the domain serves or will serve (name or id); required when the connection is limited to some projects.',
        ),
    });
  },
  get output() {
    return z.object({
      domain: z.string().describe('The domain, as asked.'),
      config: DomainConfig().describe('How its DNS points at the provider.'),
    });
  },
  access: 'read',
  idempotent: true,
  options: { project: projectOptions, domain: projectDomainOptions },
  variables: { misconfigured: '$.config.misconfigured', configured_by: '$.config.configured_by' },
  examples: [
    {
      title: "Is the shop's domain pointed at the provider?",
      input: { domain: 'shop.acme.com', project: 'shop' },
    },
  ],
  async run(input, context) {
    const what = "Reading a domain's configuration";
    const allowed = allowedProjects(context.constraints);
    if (allowed) {
      // The endpoint is account-wide: under scoping the domain must be one of an allowed
      // project's, so the project is required (refused unsent without it) and its domain read.
      requireProjectInScope(input.project, allowed, what);
      await projectRequest(context, input.project!, what, {
        method: 'GET',
        path: 'projectDomain',
        params: { domain: input.domain },
      });
    }
    const path = deploymentsPath('domainConfig', { domain: input.domain });
    const response = await context.http.request({
      method: 'GET',
      path,
      query: { projectIdOrName: input.project },
    });
    return { domain: input.domain, config: toDomainConfig(response.body, `GET ${path}`) };
  },
});

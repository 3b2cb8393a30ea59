import * as z from 'zod';
import { defineStep, ProviderError } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { DomainName, ProjectDomain, toProjectDomain } from './lib/domain-schema.js';
import { projectDomainOptions } from './lib/project-part-options.js';
import { projectRequest } from './lib/project-request.js';

export default defineStep({
  id: 'deployments.verify_project_domain',
  integration: deployments,
  title: 'Verify Project Domain',
  description:
    "Ask the provider to check a project domain's DNS verification record now; says whether it is verified, and if not, which record is still missing.",
  agentDescription:
    'Asks the provider to check the TXT record that proves ownership of a project domain added with verified false (Add Domain and List Domains name the record in verification). Use after the user says they created the record. verified true: the domain now serves the project. verified false is an answer, not a failure: reason says why (the record is missing or does not match) and domain.verification names the record to create; DNS changes can take minutes to hours to be seen, so check again later rather than in a loop. A domain not on the project is NotFoundError. Safe to retry: verifying twice is verifying once.',
  keywords: ['verify domain', 'domain verification', 'txt record', 'dns', 'check domain', 'ownership'],
  get input() {
    return z.strictObject({ project: ProjectRef(), domain: DomainName() });
  },
  options: { project: projectOptions, domain: projectDomainOptions },
  get output() {
    return z.object({
      domain: ProjectDomain().describe('The domain after the check: verified, or the record still needed.'),
      reason: z
        .string()
        .nullable()
        .describe("Why it is not verified yet, in the provider's words; null when it is verified."),
    });
  },
  access: 'write',
  // The provider re-checks DNS and records the result: sent twice, the outcome is the same,
  // and a domain already verified answers 200 again. So the transport may replay it.
  idempotent: true,
  variables: { domain: '$.domain.name', verified: '$.domain.verified', reason: '$.reason' },
  examples: [{ title: "Check the shop's domain", input: { project: 'shop', domain: 'shop.acme.com' } }],
  async run(input, context) {
    const what = 'Verifying a domain';
    try {
      const body = await projectRequest(context, input.project, what, {
        method: 'POST',
        path: 'verifyProjectDomain',
        params: { domain: input.domain },
        idempotent: true,
      });
      return { domain: toProjectDomain(body), reason: null };
    } catch (error) {
      // A 400 is the provider's "not verified" (no TXT record, or the wrong one), and also
      // its answer for a domain that is not the project's: reading the domain tells them
      // apart (a 404 there is NotFoundError) and brings the record still needed.
      if (!(error instanceof ProviderError) || error.status !== 400) throw error;
      const current = await projectRequest(context, input.project, what, {
        method: 'GET',
        path: 'projectDomain',
        params: { domain: input.domain },
      });
      return {
        domain: toProjectDomain(current),
        reason: error.providerMessage ?? 'The provider could not verify the domain.',
      };
    }
  },
});

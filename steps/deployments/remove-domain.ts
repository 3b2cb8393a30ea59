import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { DomainName } from './lib/domain-schema.js';
import { projectDomainOptions } from './lib/project-part-options.js';
import { projectRequest } from './lib/project-request.js';
import { removalOutput, removalStep } from './lib/removal.js';

export default defineStep({
  id: 'deployments.remove_domain',
  integration: deployments,
  title: 'Remove Domain',
  description: 'Take a domain off a project; it stops serving the project at once.',
  agentDescription:
    'Removes a domain from a project: visitors of that domain stop reaching the project at once. The domain itself stays in the account and can be added again. Only use when the user asked. Safe to retry: a repeat that finds it already removed succeeds with already_done true.',
  keywords: ['remove domain', 'detach domain', 'delete domain', 'unassign domain'],
  get input() {
    return z.strictObject({ project: ProjectRef(), domain: DomainName() });
  },
  options: { project: projectOptions, domain: projectDomainOptions },
  get output() {
    return removalOutput(
      'domain',
      'The removed domain.',
      'removed',
      'Always true: the domain no longer serves the project.',
    );
  },
  ...removalStep('domain', 'removed'),
  examples: [{ title: "Take the shop's domain off", input: { project: 'shop', domain: 'shop.acme.com' } }],
  async run(input, context) {
    await projectRequest(context, input.project, 'Removing a domain', {
      method: 'DELETE',
      path: 'projectDomain',
      params: { domain: input.domain },
    });
    return { domain: input.domain, removed: true as const, already_done: false };
  },
});

import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { accountDomainOptions } from './lib/deployments-options.js';
import { AccountDomain, DomainName, toAccountDomain } from './lib/domain-schema.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, refuseAccountWide } from './lib/project-scope.js';
import { readAnswer } from './lib/provider-answer.js';

export default defineStep({
  id: 'deployments.get_account_domain',
  integration: deployments,
  title: 'Get Account Domain',
  description: 'Read one domain of the account: verified, nameservers, expiry.',
  agentDescription:
    'Reads one domain the account owns or has added, by name: whether it is verified, its current and intended nameservers, and its expiry when bought through the provider. An unknown domain is NotFoundError. Refused when the connection is limited to some projects. Read-only and safe to retry.',
  keywords: ['domain', 'nameservers', 'domain status', 'expiry'],
  get input() {
    return z.strictObject({ domain: DomainName() });
  },
  get output() {
    return z.object({ domain: AccountDomain().describe('The domain as the provider holds it.') });
  },
  access: 'read',
  idempotent: true,
  options: { domain: accountDomainOptions },
  variables: { domain: '$.domain.name', verified: '$.domain.verified' },
  examples: [{ title: 'Read acme.com', input: { domain: 'acme.com' } }],
  async run(input, { http, constraints }) {
    refuseAccountWide(allowedProjects(constraints), 'Reading an account domain');
    const path = deploymentsPath('domain', { domain: input.domain });
    const response = await http.request({ method: 'GET', path });
    const body = readAnswer(z.object({ domain: z.unknown() }), response.body, `GET ${path}`, 'a domain');
    return { domain: toAccountDomain(body.domain, `GET ${path}`) };
  },
});

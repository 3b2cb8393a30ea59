import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { Alias, AliasRef, readAliasInScope } from './lib/alias-schema.js';

export default defineStep({
  id: 'deployments.get_alias',
  integration: deployments,
  title: 'Get Alias',
  description: 'Read one alias: which deployment its hostname points at.',
  agentDescription:
    'Reads one alias by hostname or uid: the deployment and project it points at, and when it last moved. An unknown alias is NotFoundError. Read-only and safe to retry.',
  keywords: ['alias', 'hostname', 'which deployment', 'url'],
  get input() {
    return z.strictObject({ alias: AliasRef() });
  },
  get output() {
    return z.object({ alias: Alias().describe('The alias.') });
  },
  access: 'read',
  idempotent: true,
  variables: { alias: '$.alias.alias', deployment_id: '$.alias.deployment_id' },
  examples: [{ title: "Where the shop's hostname points", input: { alias: 'shop-acme.vercel.app' } }],
  async run(input, context) {
    return { alias: await readAliasInScope(context, input.alias, 'Reading an alias') };
  },
});

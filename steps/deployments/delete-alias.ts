import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { AliasRef, readAliasInScope } from './lib/alias-schema.js';
import { deploymentsPath } from './lib/paths.js';

export default defineStep({
  id: 'deployments.delete_alias',
  integration: deployments,
  title: 'Delete Alias',
  description: 'Remove a hostname (alias) so it no longer serves a deployment.',
  agentDescription:
    'Removes one alias by hostname or uid: the hostname stops serving its deployment at once (the deployment itself stays). It cannot be undone through this step except by assigning the alias again; only use when the user explicitly asked to remove this hostname. The alias is read first.',
  keywords: ['delete alias', 'remove alias', 'unassign hostname', 'remove url'],
  get input() {
    return z.strictObject({ alias: AliasRef() });
  },
  get output() {
    return z.object({
      deleted: z.literal(true).describe('Always true: failures are errors.'),
      alias: z.string().describe('The hostname removed.'),
      already_done: z
        .boolean()
        .describe('True when a retried delete found the alias already gone: our earlier attempt removed it.'),
    });
  },
  access: 'destructive',
  idempotent: true,
  replay: {
    mode: 'gone_means_done',
    alreadyDone: (input) => ({ deleted: true as const, alias: input.alias, already_done: true }),
  },
  variables: { alias: '$.alias' },
  examples: [{ title: "Remove the shop's hostname", input: { alias: 'shop-acme.vercel.app' } }],
  async run(input, context) {
    const alias = await readAliasInScope(context, input.alias, 'Deleting an alias');
    await context.http.request({ method: 'DELETE', path: deploymentsPath('deleteAlias', { id: alias.uid }) });
    return { deleted: true as const, alias: alias.alias, already_done: false };
  },
});

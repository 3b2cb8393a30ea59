import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { Alias, toAlias } from './lib/alias-schema.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, refuseAccountWide, requireProjectInScope } from './lib/project-scope.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

export default defineStep({
  id: 'deployments.list_aliases',
  integration: deployments,
  title: 'List Aliases',
  description: 'List the hostnames (aliases) pointing at deployments, newest first.',
  agentDescription:
    "Lists aliases: the hostnames that point at one deployment each (a production deployment's project hostname, or one assigned with Assign Alias), newest first, a page at a time (pass next_cursor back as cursor). project narrows to one project; without it the list is account-wide and refused when the connection is limited to some projects. Read-only and safe to retry.",
  keywords: ['aliases', 'hostnames', 'urls', 'production url', 'list aliases'],
  get input() {
    return z.strictObject({ project: ProjectRef().optional(), ...TimePaging() });
  },
  get output() {
    return cursorPageOutput('aliases', Alias(), { items: 'This page of aliases, newest first.' });
  },
  access: 'read',
  idempotent: true,
  options: { project: projectOptions },
  variables: { aliases: '$.aliases[*].alias', next_cursor: '$.next_cursor' },
  examples: [{ title: "The shop's aliases", input: { project: 'shop' } }],
  async run(input, { http, constraints }) {
    const allowed = allowedProjects(constraints);
    if (input.project === undefined) refuseAccountWide(allowed, 'Listing aliases');
    else requireProjectInScope(input.project, allowed, 'Listing aliases');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('aliases'),
      query: { projectId: input.project, limit: input.limit, until: input.cursor },
    });
    const page = readTimePage(response.body, 'aliases', 'a list of aliases', toAlias);
    return { aliases: page.items, has_more: page.has_more, next_cursor: page.next_cursor };
  },
});

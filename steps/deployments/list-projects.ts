import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { deploymentsPath } from './lib/paths.js';
import { Project, toProject } from './lib/project-schema.js';
import { allowedProjects } from './lib/project-scope.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

export default defineStep({
  id: 'deployments.list_projects',
  integration: deployments,
  title: 'List Projects',
  description: 'List the projects of the account or team, most recently updated first, optionally by name.',
  agentDescription:
    'Lists projects (name, id, framework, git repository, latest deployment), most recently updated first, a page at a time: pass next_cursor back as cursor for the next page. search narrows by name. Use it to find the project name or id other steps take. When the connection is limited to some projects, only those are listed (a page may then hold fewer than limit). Read-only and safe to retry.',
  keywords: ['projects', 'list projects', 'apps', 'sites', 'find project'],
  get input() {
    return z.strictObject({
      search: z.string().min(1).max(100).optional().describe('Only projects whose name contains this.'),
      ...TimePaging(),
    });
  },
  get output() {
    return cursorPageOutput('projects', Project(), {
      items: 'This page of projects, most recently updated first.',
    });
  },
  access: 'read',
  idempotent: true,
  variables: {
    project_ids: '$.projects[*].id',
    project_names: '$.projects[*].name',
    next_cursor: '$.next_cursor',
  },
  examples: [{ title: "The team's projects", input: { limit: 10 } }],
  async run(input, { http, constraints }) {
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('projects'),
      // The list pages with `from`: the previous page's pagination.next.
      query: { search: input.search, limit: input.limit, from: input.cursor },
    });
    const page = readTimePage(response.body, 'projects', 'a list of projects', toProject);
    const allowed = allowedProjects(constraints);
    const projects = page.items
      // Scoped to some projects: the others are not shown, whether named by id or by name.
      .filter((project) => !allowed || allowed.includes(project.id) || allowed.includes(project.name));
    return { projects, has_more: page.has_more, next_cursor: page.next_cursor };
  },
});

import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, refuseAccountWide } from './lib/project-scope.js';
import { Team, toTeam } from './lib/team-schema.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

export default defineStep({
  id: 'deployments.list_teams',
  integration: deployments,
  title: 'List Teams',
  description: 'List the teams the connected user belongs to, with their role in each.',
  agentDescription:
    "Lists the teams the connected user belongs to: id (the teamId a connection takes), slug, name and the user's role. Steps act in the connection's own team; to work in another team, the user needs a connection for it. Refused when the connection is limited to some projects (teams are account-wide). Read-only and safe to retry.",
  keywords: ['teams', 'organizations', 'workspaces', 'accounts', 'list teams'],
  get input() {
    return z.strictObject(TimePaging());
  },
  get output() {
    return cursorPageOutput('teams', Team(), { items: 'This page of teams.' });
  },
  access: 'read',
  idempotent: true,
  variables: { team_ids: '$.teams[*].id', team_slugs: '$.teams[*].slug', next_cursor: '$.next_cursor' },
  examples: [{ title: "The user's teams", input: {} }],
  async run(input, { http, constraints }) {
    refuseAccountWide(allowedProjects(constraints), 'Listing teams');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('teams'),
      query: { limit: input.limit, until: input.cursor },
    });
    const { items, has_more, next_cursor } = readTimePage(response.body, 'teams', 'a list of teams', toTeam);
    return { teams: items, has_more, next_cursor };
  },
});

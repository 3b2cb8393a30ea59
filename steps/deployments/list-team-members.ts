import * as z from 'zod';
import { cursorPageOutput, defineStep, InputError } from '../../src/kit/index.js';
import { deployments, TeamId } from './integration.js';
import { teamOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, refuseAccountWide } from './lib/project-scope.js';
import { TeamMember, toTeamMember } from './lib/team-schema.js';
import { readTimePage, TimePaging } from './lib/time-page.js';

const ROLES = [
  'OWNER',
  'MEMBER',
  'DEVELOPER',
  'SECURITY',
  'BILLING',
  'VIEWER',
  'VIEWER_FOR_PLUS',
  'CONTRIBUTOR',
] as const;

export default defineStep({
  id: 'deployments.list_team_members',
  integration: deployments,
  title: 'List Team Members',
  description: 'List the members of a team with their roles, optionally searched by name or email.',
  agentDescription:
    "Lists a team's members (user id, username, email, name, role), newest first, a page at a time (pass next_cursor back as cursor). team defaults to the connection's team. search matches name, username and email; role keeps one role. Refused when the connection is limited to some projects (members are account-wide). Read-only and safe to retry.",
  keywords: ['team members', 'members', 'users', 'people', 'collaborators', 'who is on the team'],
  get input() {
    return z.strictObject({
      team: TeamId().optional().describe("Team id (team_...) or slug; defaults to the connection's team."),
      search: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe('Only members whose name, username or email contains this.'),
      role: z.enum(ROLES).optional().describe('Only members with this role.'),
      ...TimePaging(),
    });
  },
  options: { team: teamOptions },
  get output() {
    return cursorPageOutput('members', TeamMember(), { items: 'This page of members, newest first.' });
  },
  access: 'read',
  idempotent: true,
  variables: { user_ids: '$.members[*].user_id', emails: '$.members[*].email', next_cursor: '$.next_cursor' },
  examples: [{ title: "The team's owners", input: { role: 'OWNER' } }],
  async run(input, { http, constraints, connection }) {
    refuseAccountWide(allowedProjects(constraints), 'Listing team members');
    const team = input.team ?? (connection.fields.teamId as string | undefined);
    if (!team) {
      throw new InputError(
        'team is required: this connection is for a personal account, which has no members.',
        [{ path: 'team', message: 'required when the connection has no teamId' }],
      );
    }
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('teamMembers', { id: team }),
      // The team is in the path; this operation takes no teamId parameter, so the connection's is left off.
      query: {
        teamId: undefined,
        limit: input.limit,
        until: input.cursor,
        search: input.search,
        role: input.role,
      },
    });
    const { items, has_more, next_cursor } = readTimePage(
      response.body,
      'members',
      'a list of team members',
      toTeamMember,
    );
    return { members: items, has_more, next_cursor };
  },
});

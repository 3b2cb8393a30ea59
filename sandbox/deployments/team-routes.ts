import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import type { TeamRecord } from './deployments-state.js';
import { apiError, type Caller, type DeploymentsRequest, notFound } from './deployments-wire.js';

function renderTeam(team: TeamRecord, uid: string) {
  const membership = team.members.find((member) => member.uid === uid);
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    createdAt: team.createdAt,
    // Required by the provider's description (Team); the sandbox has no model for them.
    creatorId: team.members.find((member) => member.role === 'OWNER')?.uid ?? '',
    updatedAt: team.createdAt,
    description: null,
    stagingPrefix: team.slug,
    avatar: null,
    membership: membership
      ? {
          role: membership.role,
          confirmed: true,
          created: membership.joinedAt,
          createdAt: membership.joinedAt,
        }
      : null,
  };
}

/** The team a path names, if the caller belongs to it. */
function visibleTeam(request: DeploymentsRequest): TeamRecord | Reply {
  const { world, user } = request.caller;
  const team = world.team(request.params.teamId ?? '');
  if (!team) return notFound('Team');
  if (!world.isMember(team, user)) {
    return apiError(403, 'forbidden', "You don't have permission to access this team.");
  }
  return team;
}

/** The teams of the caller and their members. */
export function teamRoutes(router: Router<Caller>): void {
  router
    // The signed-in user, with the fields the provider's description requires (AuthUser).
    .on('GET', '/v2/user', (request) => {
      const { user } = request.caller;
      return json(200, {
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          username: user.username,
          avatar: null,
          defaultTeamId: null,
          createdAt: 0,
          softBlock: null,
          billing: null,
          resourceConfig: {},
          stagingPrefix: user.username,
          hasTrialAvailable: false,
        },
      });
    })
    .on('GET', '/v2/teams', (request) => {
      const { world, user } = request.caller;
      const teams = [...world.teams.values()]
        .filter((team) => world.isMember(team, user))
        .map((team) => renderTeam(team, user.id));
      return json(200, { teams, pagination: { count: teams.length, next: null, prev: null } });
    })
    .on('GET', '/v2/teams/:teamId', (request) => {
      const team = visibleTeam(request);
      return 'status' in team ? team : json(200, renderTeam(team, request.caller.user.id));
    })
    .on('GET', '/v2/teams/:teamId/members', (request) => {
      const team = visibleTeam(request);
      if ('status' in team) return team;
      const { world } = request.caller;
      const members = team.members.map((member) => {
        const user = [...world.users.values()].find((candidate) => candidate.id === member.uid);
        return {
          uid: member.uid,
          username: user?.username,
          email: user?.email,
          name: user?.name,
          role: member.role,
          confirmed: true,
          createdAt: member.joinedAt,
        };
      });
      return json(200, {
        members,
        pagination: { hasNext: false, count: members.length, next: null, prev: null },
      });
    });
}

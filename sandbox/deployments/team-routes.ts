import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { TEAM_ROLES, type TeamRecord } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, intParam, notFound, timePage } from './deployments-wire.js';

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
    // The current official SDK (and the description) list members with v3: paged and searchable.
    .on('GET', ['/v2/teams/:teamId/members', '/v3/teams/:teamId/members'], listMembers);
}

/** A team's members, newest first, by `limit` and `until` (ms joined), `search` and `role`. */
function listMembers(request: DeploymentsRequest): Reply {
  const team = visibleTeam(request);
  if ('status' in team) return team;
  const limit = intParam(request, 'limit', { min: 1, max: 100 });
  const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
  const since = intParam(request, 'since', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (limit === 'invalid' || until === 'invalid' || since === 'invalid')
    return badRequest('`limit` is 1 to 100; `since` and `until` are ms timestamps.');
  const role = request.query.get('role');
  if (role !== null && !TEAM_ROLES.includes(role))
    return badRequest(`\`role\` must be one of ${TEAM_ROLES.join(', ')}.`);
  const search = request.query.get('search')?.toLowerCase();
  const { world } = request.caller;
  const members = team.members
    .map((member) => ({ member, user: [...world.users.values()].find((user) => user.id === member.uid) }))
    .filter(({ member }) => role === null || member.role === role)
    .filter(
      ({ user }) =>
        !search ||
        [user?.name, user?.username, user?.email].some((field) => field?.toLowerCase().includes(search)),
    )
    .filter(({ member }) => until === undefined || member.joinedAt < until)
    .filter(({ member }) => since === undefined || member.joinedAt > since)
    .sort((a, b) => b.member.joinedAt - a.member.joinedAt);
  const { page, pagination } = timePage(members, limit ?? 20, ({ member }) => member.joinedAt);
  return json(200, {
    members: page.map(({ member, user }) => ({
      uid: member.uid,
      username: user?.username ?? member.uid,
      email: user?.email ?? '',
      name: user?.name,
      role: member.role,
      confirmed: true,
      createdAt: member.joinedAt,
    })),
    pagination: { hasNext: pagination.next !== null, ...pagination },
  });
}

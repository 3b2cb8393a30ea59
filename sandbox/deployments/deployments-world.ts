import { definedOnly } from '../../src/values/defined-only.js';
import {
  type DeploymentRecord,
  type DeploymentTimeline,
  type DnsRecord,
  type EnvRecord,
  newId,
  OwnerScope,
  type PendingDeploymentEvent,
  type ProjectRecord,
  type TeamRecord,
  type UserRecord,
} from './deployments-state.js';

export interface DeploymentsWorldOptions {
  now: () => number;
  timeline: () => DeploymentTimeline;
  /** Builds of these branches end in ERROR. */
  failingBranches: () => readonly string[];
}

export interface NewDeployment {
  project: ProjectRecord;
  creator: UserRecord;
  target: string | null;
  gitSource: Record<string, unknown> | null;
  meta?: Record<string, string>;
  projectSettings?: Record<string, unknown>;
  source?: DeploymentRecord['source'];
  /** For seeding history; defaults to now. */
  createdAt?: number;
}

/**
 * The sandbox users, teams and owners, empty until seeded: the emulator
 * seeds each new world from deployments-seed.ts, where user "ada" (OAuth
 * user 1) owns a personal account and team "acme", and "sam" (user 2) also
 * belongs to acme and owns "globex", which ada cannot see.
 */
export class DeploymentsWorld {
  readonly users = new Map<number, UserRecord>();
  readonly teams = new Map<string, TeamRecord>();
  /**
   * The sandbox's stand-in for public DNS, by lowercase record name
   * (`_vercel.acme.com`, `www.acme.com`): what verifying a project domain and
   * reading a domain's configuration look up. DNS belongs to no account, so
   * it lives beside the owners rather than in one.
   */
  readonly dns = new Map<string, DnsRecord[]>();
  /** Events actions caused (a promotion), for the webhook sender's next tick, oldest first. */
  readonly outbox: PendingDeploymentEvent[] = [];
  private readonly scopes = new Map<string, OwnerScope>();
  private lastCreatedAt = 0;

  constructor(private readonly options: DeploymentsWorldOptions) {}

  /** The personal account of a user, or a team's holdings. */
  scope(ownerId: string): OwnerScope {
    let scope = this.scopes.get(ownerId);
    if (!scope) {
      const team = this.teams.get(ownerId);
      const user = [...this.users.values()].find((candidate) => candidate.id === ownerId);
      scope = new OwnerScope(ownerId, team?.slug ?? user?.username ?? ownerId);
      this.scopes.set(ownerId, scope);
    }
    return scope;
  }

  /** The team a `teamId` or `slug` parameter names. */
  team(idOrSlug: string): TeamRecord | undefined {
    return this.teams.get(idOrSlug) ?? [...this.teams.values()].find((team) => team.slug === idOrSlug);
  }

  isMember(team: TeamRecord, user: UserRecord): boolean {
    return team.members.some((member) => member.uid === user.id);
  }

  /** Every scope's deployment by id, for tests that look across owners. */
  findDeployment(id: string): DeploymentRecord | undefined {
    for (const scope of this.scopes.values()) {
      const found = scope.deployments.get(id);
      if (found) return found;
    }
    return undefined;
  }

  allDeployments(): DeploymentRecord[] {
    return [...this.scopes.values()].flatMap((scope) => [...scope.deployments.values()]);
  }

  addProject(
    scope: OwnerScope,
    fields: Partial<Omit<ProjectRecord, 'id' | 'accountId'>> & { name: string },
  ): ProjectRecord {
    const now = this.options.now();
    const project: ProjectRecord = {
      framework: null,
      buildCommand: null,
      installCommand: null,
      outputDirectory: null,
      rootDirectory: null,
      devCommand: null,
      nodeVersion: '22.x',
      link: null,
      createdAt: now,
      updatedAt: now,
      ...fields,
      id: newId('prj'),
      accountId: scope.ownerId,
    };
    scope.projects.set(project.id, project);
    return project;
  }

  createDeployment(scope: OwnerScope, fields: NewDeployment): DeploymentRecord {
    // Timestamps stay unique per world: the provider pages with an exclusive
    // `until` on the creation time, which a tie would make skip a deployment.
    const createdAt = fields.createdAt ?? Math.max(this.options.now(), this.lastCreatedAt + 1);
    if (fields.createdAt === undefined) this.lastCreatedAt = createdAt;
    const ref = typeof fields.gitSource?.ref === 'string' ? fields.gitSource.ref : undefined;
    const id = newId('dpl');
    const deployment: DeploymentRecord = {
      id,
      name: fields.project.name,
      url: `${fields.project.name}-${id.slice(4, 13).toLowerCase()}-${scope.slug}.vercel.app`,
      projectId: fields.project.id,
      ownerId: scope.ownerId,
      creatorId: fields.creator.id,
      target: fields.target,
      createdAt,
      timeline: { ...this.options.timeline() },
      fails: ref !== undefined && this.options.failingBranches().includes(ref),
      gitSource: fields.gitSource,
      meta: {
        ...definedOnly({
          githubCommitRef: ref,
          githubCommitSha: typeof fields.gitSource?.sha === 'string' ? fields.gitSource.sha : undefined,
        }),
        ...fields.meta,
      },
      projectSettings: fields.projectSettings ?? {},
      source: fields.source ?? 'git',
      ...definedOnly({ blockedReason: this.blockedReason(scope, fields.meta) }),
      // Deployments seeded with a past creation time are history: no webhook hears of them.
      announced:
        fields.createdAt === undefined
          ? []
          : ['deployment.created', 'deployment.succeeded', 'deployment.error', 'deployment.canceled'],
    };
    scope.deployments.set(deployment.id, deployment);
    fields.project.updatedAt = Math.max(fields.project.updatedAt, createdAt);
    return deployment;
  }

  /** Why a team blocks this deployment: a commit author who is not a member of the team. */
  private blockedReason(scope: OwnerScope, meta: Record<string, string> | undefined): string | undefined {
    const author = meta?.githubCommitAuthorLogin;
    const team = this.teams.get(scope.ownerId);
    if (!team || author === undefined) return undefined;
    const members = new Set(team.members.map((member) => member.uid));
    const isMember = [...this.users.values()].some(
      (user) => user.username === author && members.has(user.id),
    );
    return isMember ? undefined : `The commit author "${author}" is not a member of the team "${team.slug}".`;
  }

  addEnv(
    scope: OwnerScope,
    project: ProjectRecord,
    creator: UserRecord,
    fields: Pick<EnvRecord, 'key' | 'value' | 'type' | 'target'> & { gitBranch?: string | null },
  ): EnvRecord {
    const now = this.options.now();
    const env: EnvRecord = {
      id: newId('env').replace('env_', ''),
      projectId: project.id,
      gitBranch: null,
      ...fields,
      createdAt: now,
      updatedAt: now,
      createdBy: creator.id,
    };
    scope.envs.set(env.id, env);
    return env;
  }
}

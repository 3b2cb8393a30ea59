/** In-memory records of the emulated deployment platform: users, teams, and what each owner holds. */
import { randomBytes } from 'node:crypto';

export type ReadyState = 'QUEUED' | 'INITIALIZING' | 'BUILDING' | 'READY' | 'ERROR' | 'CANCELED' | 'BLOCKED';
export const READY_STATES: readonly ReadyState[] = [
  'QUEUED',
  'INITIALIZING',
  'BUILDING',
  'READY',
  'ERROR',
  'CANCELED',
  'BLOCKED',
];
export const CANCELABLE: readonly ReadyState[] = ['QUEUED', 'INITIALIZING', 'BUILDING'];

/** How long each phase of a build lasts, in ms of the sandbox clock. */
export interface DeploymentTimeline {
  queuedMs: number;
  initializingMs: number;
  buildingMs: number;
}

export const DEFAULT_TIMELINE: DeploymentTimeline = {
  queuedMs: 5_000,
  initializingMs: 3_000,
  buildingMs: 45_000,
};

export interface UserRecord {
  /** The OAuth provider's numeric user id. */
  number: number;
  id: string;
  username: string;
  email: string;
  name: string;
}

/**
 * Every role a team member can hold at the provider, as the members list's
 * `role` filter takes them (the seed uses four); test/sandbox/vocabulary.test.ts
 * holds them equal to the roles the steps offer.
 */
export const TEAM_ROLES: readonly string[] = [
  'OWNER',
  'MEMBER',
  'DEVELOPER',
  'SECURITY',
  'BILLING',
  'VIEWER',
  'VIEWER_FOR_PLUS',
  'CONTRIBUTOR',
];

export interface TeamRecord {
  id: string;
  slug: string;
  name: string;
  createdAt: number;
  members: { uid: string; role: 'OWNER' | 'MEMBER' | 'DEVELOPER' | 'VIEWER'; joinedAt: number }[];
  /**
   * Set when the provider soft-blocks the team (an unpaid invoice, say): new
   * deployments are refused with 402 until it is cleared.
   */
  softBlock?: string;
}

export interface GitLink {
  type: 'github' | 'gitlab' | 'bitbucket';
  org?: string;
  repo?: string;
  repoId?: number;
  projectId?: number;
  owner?: string;
  slug?: string;
  productionBranch: string;
  createdAt: number;
}

export interface ProjectRecord {
  id: string;
  name: string;
  accountId: string;
  framework: string | null;
  buildCommand: string | null;
  installCommand: string | null;
  outputDirectory: string | null;
  rootDirectory: string | null;
  devCommand: string | null;
  nodeVersion: string;
  link: GitLink | null;
  createdAt: number;
  updatedAt: number;
}

export interface DeploymentRecord {
  id: string;
  name: string;
  url: string;
  projectId: string;
  ownerId: string;
  creatorId: string;
  target: string | null;
  createdAt: number;
  timeline: DeploymentTimeline;
  /** Decided at creation: the build ends in ERROR instead of READY. */
  fails: boolean;
  /**
   * Decided at creation: the deployment is BLOCKED and never builds, as the
   * provider blocks a team's git deployment whose commit author is not a
   * member of the team. The reason is answered as `readyStateReason`.
   */
  blockedReason?: string;
  /** Webhook events already sent for it; history seeded into the sandbox counts as announced. */
  announced: DeploymentEventType[];
  canceledAt?: number;
  /** Test hook: more build output, printed right after the build command. */
  extraLog?: string[];
  gitSource: Record<string, unknown> | null;
  meta: Record<string, string>;
  projectSettings: Record<string, unknown>;
  source: 'git' | 'api' | 'cli';
}

export interface DomainRecord {
  id: string;
  name: string;
  ownerId: string;
  creatorId: string;
  verified: boolean;
  createdAt: number;
}

export interface ProjectDomainRecord {
  name: string;
  apexName: string;
  projectId: string;
  redirect: string | null;
  redirectStatusCode: number | null;
  gitBranch: string | null;
  verified: boolean;
  createdAt: number;
  updatedAt: number;
}

/** `secret` is the legacy type: a reference to an account secret, never readable. */
export type EnvType = 'plain' | 'encrypted' | 'sensitive' | 'secret' | 'system';
export const ENV_TYPES: readonly EnvType[] = ['plain', 'encrypted', 'sensitive', 'secret', 'system'];
export const ENV_TARGETS = ['production', 'preview', 'development'] as const;

export interface EnvRecord {
  id: string;
  projectId: string;
  key: string;
  value: string;
  type: EnvType;
  target: string[];
  gitBranch: string | null;
  createdAt: number;
  updatedAt: number;
  createdBy: string;
}

/**
 * The deployment events the sandbox sends: the lifecycle, in the order a
 * deployment can reach it, then `deployment.promoted`, which an action (a
 * promotion) sends rather than the clock.
 */
export const DEPLOYMENT_EVENT_TYPES = [
  'deployment.created',
  'deployment.succeeded',
  'deployment.error',
  'deployment.canceled',
  'deployment.promoted',
] as const;
export type DeploymentEventType = (typeof DEPLOYMENT_EVENT_TYPES)[number];

/** An event an action caused (a promotion), waiting for the webhook sender's next tick. */
export interface PendingDeploymentEvent {
  type: DeploymentEventType;
  deploymentId: string;
  /** The target the event names, when it is not the deployment's own (a promotion is to production). */
  target?: string;
}

/** The record types the sandbox's stand-in for public DNS holds. */
export const DNS_RECORD_TYPES = ['TXT', 'CNAME', 'A'] as const;

/** One record of the sandbox's stand-in for public DNS, which verification and domain configuration read. */
export interface DnsRecord {
  type: (typeof DNS_RECORD_TYPES)[number];
  value: string;
}

/** A webhook of an owner (`POST /v1/webhooks`); the secret is shown in the create answer only. */
export interface DeploymentWebhookRecord {
  id: string;
  url: string;
  events: DeploymentEventType[];
  /** Only deployments of these projects; undefined = every project of the owner. */
  projectIds?: string[];
  ownerId: string;
  createdAt: number;
  updatedAt: number;
  secret: string;
}

/** A hostname pointing at one deployment (`POST /v2/deployments/{id}/aliases`); moving it keeps its uid. */
export interface AliasRecord {
  uid: string;
  alias: string;
  deploymentId: string;
  projectId: string;
  creatorId: string;
  createdAt: number;
  updatedAt: number;
}

/** Everything one owner (a personal account or a team) holds. */
export class OwnerScope {
  readonly projects = new Map<string, ProjectRecord>();
  readonly deployments = new Map<string, DeploymentRecord>();
  readonly domains = new Map<string, DomainRecord>();
  readonly projectDomains = new Map<string, ProjectDomainRecord>();
  readonly envs = new Map<string, EnvRecord>();
  readonly webhooks = new Map<string, DeploymentWebhookRecord>();
  readonly aliases = new Map<string, AliasRecord>();
  constructor(
    readonly ownerId: string,
    readonly slug: string,
  ) {}

  /** A project by id or by name, as every endpoint takes either. */
  project(idOrName: string): ProjectRecord | undefined {
    const byId = this.projects.get(idOrName);
    if (byId) return byId;
    const wanted = idOrName.toLowerCase();
    return [...this.projects.values()].find((project) => project.name === wanted);
  }

  /** A deployment by id or by its hostname. */
  deployment(idOrUrl: string): DeploymentRecord | undefined {
    const byId = this.deployments.get(idOrUrl);
    if (byId) return byId;
    const host = idOrUrl.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
    return [...this.deployments.values()].find((deployment) => deployment.url === host);
  }
}

/** A provider-looking id: prefix plus 24 alphanumerics. */
export function newId(prefix: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  return `${prefix}_${[...bytes].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}

export interface DerivedState {
  readyState: ReadyState;
  buildingAt: number | null;
  ready: number | null;
}

/**
 * A deployment's state is a function of the clock: QUEUED, then
 * INITIALIZING, then BUILDING, then READY (or ERROR), unless it was
 * cancelled first. Nothing ticks in the background, so a manual clock
 * moves every build forward.
 */
export function stateAt(deployment: DeploymentRecord, now: number): DerivedState {
  const { queuedMs, initializingMs, buildingMs } = deployment.timeline;
  const initializingAt = deployment.createdAt + queuedMs;
  const buildingAt = initializingAt + initializingMs;
  const doneAt = buildingAt + buildingMs;
  if (deployment.blockedReason !== undefined) return { readyState: 'BLOCKED', buildingAt: null, ready: null };
  // Cancelling is accepted only before the build ends, so a cancelled deployment stays CANCELED.
  if (deployment.canceledAt !== undefined) {
    return {
      readyState: 'CANCELED',
      buildingAt: deployment.canceledAt >= buildingAt ? buildingAt : null,
      ready: null,
    };
  }
  if (now < initializingAt) return { readyState: 'QUEUED', buildingAt: null, ready: null };
  if (now < buildingAt) return { readyState: 'INITIALIZING', buildingAt: null, ready: null };
  if (now < doneAt) return { readyState: 'BUILDING', buildingAt, ready: null };
  return deployment.fails
    ? { readyState: 'ERROR', buildingAt, ready: null }
    : { readyState: 'READY', buildingAt, ready: doneAt };
}

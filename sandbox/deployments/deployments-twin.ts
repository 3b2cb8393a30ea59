import * as z from 'zod';
import type { TwinControl } from '../twin-control.js';
import { DNS_RECORD_TYPES, stateAt } from './deployments-state.js';
import type { DeploymentsWorld } from './deployments-world.js';

const MINUTE_MS = 60_000;

const DeploymentSeed = z.strictObject({
  id: z
    .string()
    .regex(/^dpl_[A-Za-z0-9]{1,40}$/)
    .optional()
    .describe('A fixed id (dpl_...), so a scripted agent can name it; random when absent.'),
  project: z.string().min(1).default('shop').describe("A project by name in the owner's scope."),
  owner: z
    .string()
    .min(1)
    .default('team_acme')
    .describe("team_acme (the sandbox connection's team), user_ada..."),
  target: z.enum(['production', 'staging']).nullable().default(null),
  branch: z.string().min(1).default('main'),
  started_minutes_ago: z.number().min(0).max(100_000).describe('When it was created.'),
  build_minutes: z
    .number()
    .min(0)
    .max(100_000)
    .default(1)
    .describe('How long its build takes: a build much longer than usual is one that is stuck.'),
});

const DnsRecordSeed = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(253)
    .describe('Record name, e.g. _vercel.example.org (the TXT record that verifies a project domain).'),
  type: z.enum(DNS_RECORD_TYPES),
  value: z.string().min(1).max(2048).describe('e.g. vc-domain-verify=www.example.org,sandbox'),
});

/**
 * What a scenario adds to the deployments twin: deployments at given points
 * of their builds, and DNS records (added to any the name already has).
 */
export const DeploymentsTwinSeed = z.strictObject({
  deployments: z.array(DeploymentSeed).default([]),
  dns_records: z.array(DnsRecordSeed).default([]),
});

/** The deployments twin's scenario face over its current world (replaced on reset). */
export function deploymentsTwin(
  world: () => DeploymentsWorld,
  now: () => number,
  tokens: { expireAll(): number; revokeAll(): void },
): TwinControl {
  return {
    seedSchema: DeploymentsTwinSeed,
    seed(raw) {
      const seed = DeploymentsTwinSeed.parse(raw);
      const current = world();
      for (const entry of seed.deployments) {
        const scope = current.scope(entry.owner);
        const project = scope.project(entry.project);
        if (!project)
          throw new Error(`the deployments twin has no project ${entry.project} in ${entry.owner}`);
        const made = current.createDeployment(scope, {
          project,
          creator: current.users.get(1)!,
          target: entry.target,
          gitSource: { type: 'github', repoId: project.link?.repoId, ref: entry.branch },
          createdAt: now() - entry.started_minutes_ago * MINUTE_MS,
        });
        made.timeline = { queuedMs: 0, initializingMs: 0, buildingMs: entry.build_minutes * MINUTE_MS };
        if (entry.id) {
          scope.deployments.delete(made.id);
          made.id = entry.id;
          scope.deployments.set(made.id, made);
        }
      }
      for (const { name, type, value } of seed.dns_records) {
        const key = name.toLowerCase();
        current.dns.set(key, [...(current.dns.get(key) ?? []), { type, value }]);
      }
    },
    state() {
      const at = now();
      return {
        deployments: world()
          .allDeployments()
          .map((deployment) => ({
            id: deployment.id,
            project: deployment.name,
            owner: deployment.ownerId,
            target: deployment.target,
            state: stateAt(deployment, at).readyState,
            created_at: new Date(deployment.createdAt).toISOString(),
            canceled: deployment.canceledAt !== undefined,
          })),
      };
    },
    expireTokens: () => tokens.expireAll(),
    revokeGrants: () => tokens.revokeAll(),
  };
}

import {
  type GitLink,
  newId,
  type OwnerScope,
  type ProjectRecord,
  type UserRecord,
} from './deployments-state.js';
import type { DeploymentsWorld } from './deployments-world.js';

const DAY_MS = 24 * 3600_000;

/**
 * What the deployments sandbox starts with: users ada (OAuth user 1) and sam
 * (user 2); ada's personal projects web and api; team acme (ada owner, sam
 * member) with shop, docs, a domain and variables; team globex (sam only)
 * with portal; a little public DNS (shop.acme.com points at the provider,
 * acme.com elsewhere); and a few finished deployments from the past days.
 */
export function seedDeploymentsWorld(world: DeploymentsWorld, now: number): void {
  const ada: UserRecord = {
    number: 1,
    id: 'user_ada',
    username: 'ada',
    email: 'ada@acme.example',
    name: 'Ada Admin',
  };
  const sam: UserRecord = {
    number: 2,
    id: 'user_sam',
    username: 'sam',
    email: 'sam@acme.example',
    name: 'Sam Builder',
  };
  world.users.set(ada.number, ada);
  world.users.set(sam.number, sam);
  world.teams.set('team_acme', {
    id: 'team_acme',
    slug: 'acme',
    name: 'Acme',
    createdAt: now - 400 * DAY_MS,
    members: [
      { uid: ada.id, role: 'OWNER', joinedAt: now - 400 * DAY_MS },
      { uid: sam.id, role: 'MEMBER', joinedAt: now - 200 * DAY_MS },
    ],
  });
  world.teams.set('team_globex', {
    id: 'team_globex',
    slug: 'globex',
    name: 'Globex',
    createdAt: now - 100 * DAY_MS,
    members: [{ uid: sam.id, role: 'OWNER', joinedAt: now - 100 * DAY_MS }],
  });

  const github = (org: string, repo: string, repoId: number): GitLink => ({
    type: 'github',
    org,
    repo,
    repoId,
    productionBranch: 'main',
    createdAt: now - 300 * DAY_MS,
  });
  const personal = world.scope(ada.id);
  const web = world.addProject(personal, {
    name: 'web',
    framework: 'nextjs',
    link: github('ada', 'web', 1001),
  });
  world.addProject(personal, { name: 'api', framework: null, link: github('ada', 'api', 1002) });
  personal.domains.set('ada.dev', {
    id: newId('dom'),
    name: 'ada.dev',
    ownerId: ada.id,
    creatorId: ada.id,
    verified: true,
    createdAt: now - 300 * DAY_MS,
  });

  const acme = world.scope('team_acme');
  const shop = world.addProject(acme, {
    name: 'shop',
    framework: 'nextjs',
    link: github('acme', 'shop', 2001),
  });
  world.addProject(acme, {
    name: 'docs',
    framework: 'vite',
    link: { type: 'gitlab', projectId: 3001, productionBranch: 'main', createdAt: now - 200 * DAY_MS },
  });
  acme.domains.set('acme.com', {
    id: newId('dom'),
    name: 'acme.com',
    ownerId: 'team_acme',
    creatorId: ada.id,
    verified: true,
    createdAt: now - 350 * DAY_MS,
  });
  acme.projectDomains.set('shop.acme.com', {
    name: 'shop.acme.com',
    apexName: 'acme.com',
    projectId: shop.id,
    redirect: null,
    redirectStatusCode: null,
    gitBranch: null,
    verified: true,
    createdAt: now - 300 * DAY_MS,
    updatedAt: now - 300 * DAY_MS,
  });
  // Public DNS: the shop's domain points at the provider; the apex does not yet.
  world.dns.set('shop.acme.com', [{ type: 'CNAME', value: 'cname.vercel-dns.com.' }]);
  world.dns.set('acme.com', [{ type: 'A', value: '192.0.2.10' }]);
  world.addEnv(acme, shop, ada, {
    key: 'DATABASE_URL',
    value: 'postgres://shop:sandbox@db.acme.example/shop',
    type: 'encrypted',
    target: ['production', 'preview'],
  });
  world.addEnv(acme, shop, ada, {
    key: 'NEXT_PUBLIC_SITE_NAME',
    value: 'Acme Shop',
    type: 'plain',
    target: ['production', 'preview', 'development'],
  });

  const globex = world.scope('team_globex');
  world.addProject(globex, { name: 'portal', link: github('globex', 'portal', 4001) });

  // A little history: finished deployments from the past days.
  const history: [OwnerScope, ProjectRecord, string | null, number][] = [
    [personal, web, 'production', 2],
    [personal, web, null, 1],
    [acme, shop, 'production', 3],
  ];
  for (const [scope, project, target, daysAgo] of history) {
    const deployment = world.createDeployment(scope, {
      project,
      creator: ada,
      target,
      gitSource: { type: 'github', repoId: project.link?.repoId, ref: 'main' },
      createdAt: now - daysAgo * DAY_MS,
    });
    // A production deployment answers at its project's own hostname, as the provider aliases it.
    if (target === 'production') {
      const alias = `${project.name}-${scope.slug}.vercel.app`;
      scope.aliases.set(alias, {
        uid: newId('alias'),
        alias,
        deploymentId: deployment.id,
        projectId: project.id,
        creatorId: ada.id,
        createdAt: deployment.createdAt,
        updatedAt: deployment.createdAt,
      });
    }
  }
}

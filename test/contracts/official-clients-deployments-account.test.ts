import { Vercel } from '@vercel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/model/clock.js';

/**
 * @vercel/sdk, unmodified, on the account-level routes: the account's
 * domains (the SDK requires `echMode`, `suffix`, `userId` and a full
 * creator on each) and deployment webhooks. Its response validation is
 * strict, so a field the sandbox leaves out fails here.
 */
let sandbox: Sandbox;
let vercel: Vercel;
const teamId = 'team_acme';
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));

beforeAll(async () => {
  sandbox = await startSandbox({ clock });
  vercel = new Vercel({
    bearerToken: sandbox.deployments.issueToken(1),
    serverURL: sandbox.baseUrl('deployments'),
  });
});
afterAll(() => sandbox.close());

describe('@vercel/sdk against the deployments sandbox: account domains and webhooks', () => {
  it("lists and reads the account's domains, personal and a team's", async () => {
    const personal = await vercel.domains.getDomains({});
    expect(personal.domains.map((domain) => domain.name)).toContain('ada.dev');
    expect(personal.domains[0]).toMatchObject({ teamId: null, creator: { username: 'ada' } });
    const team = await vercel.domains.getDomains({ teamId, limit: 1 });
    expect(team.domains).toHaveLength(1);
    const one = await vercel.domains.getDomain({ domain: team.domains[0]?.name ?? '', teamId });
    expect(one.domain).toMatchObject({ name: team.domains[0]?.name, teamId, echMode: 'auto' });
  });

  it('lists aliases, reads one, assigns one to a deployment (moving it keeps its uid) and deletes it', async () => {
    const listed = await vercel.aliases.listAliases({ teamId, projectId: 'shop' });
    expect(listed.aliases.map((alias) => alias.alias)).toEqual(['shop-acme.vercel.app']);
    const seeded = listed.aliases[0]!;
    const shown = await vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId });
    expect(shown).toMatchObject({ uid: seeded.uid, deploymentId: seeded.deploymentId });
    const deployment = await vercel.deployments.createDeployment({
      teamId,
      requestBody: {
        name: 'shop',
        project: 'shop',
        gitSource: { type: 'github', repoId: 2001, ref: 'main' },
      },
    });
    const assigned = await vercel.aliases.assignAlias({
      id: deployment.id,
      teamId,
      requestBody: { alias: 'shop-acme.vercel.app' },
    });
    expect(assigned).toMatchObject({ uid: seeded.uid, oldDeploymentId: seeded.deploymentId });
    const fresh = await vercel.aliases.assignAlias({
      id: deployment.id,
      teamId,
      requestBody: { alias: 'beta.acme.com' },
    });
    expect(await vercel.aliases.deleteAlias({ aliasId: fresh.uid, teamId })).toEqual({ status: 'SUCCESS' });
    await expect(vercel.aliases.getAlias({ idOrAlias: fresh.uid, teamId })).rejects.toThrow();
  });

  it('redeploys, promotes a READY deployment and rolls back to the earlier production one', async () => {
    const [production] = (
      await vercel.deployments.getDeployments({ teamId, projectId: 'shop', target: 'production' })
    ).deployments;
    const rebuilt = await vercel.deployments.createDeployment({
      teamId,
      requestBody: { name: 'shop', deploymentId: production!.uid, target: 'production' },
    });
    expect(rebuilt).toMatchObject({ name: 'shop', readyState: 'QUEUED' });
    clock.advance(60_000);
    await vercel.projects.requestPromote({ projectId: 'shop', deploymentId: rebuilt.id, teamId });
    expect(await vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId })).toMatchObject({
      deploymentId: rebuilt.id,
    });
    await vercel.projects.requestRollback({ projectId: 'shop', deploymentId: production!.uid, teamId });
    expect(await vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId })).toMatchObject({
      deploymentId: production!.uid,
    });
  });

  it('creates, lists, reads and deletes a deployment webhook', async () => {
    const created = await vercel.webhooks.createWebhook({
      teamId,
      requestBody: { url: 'http://127.0.0.1:9/hook', events: ['deployment.succeeded'] },
    });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['deployment.succeeded'] });
    const listed = await vercel.webhooks.getWebhooks({ teamId });
    expect(JSON.stringify(listed)).toContain(created.id);
    expect(await vercel.webhooks.getWebhook({ id: created.id, teamId })).toMatchObject({ id: created.id });
    await vercel.webhooks.deleteWebhook({ id: created.id, teamId });
    await expect(vercel.webhooks.getWebhook({ id: created.id, teamId })).rejects.toThrow();
  });
});

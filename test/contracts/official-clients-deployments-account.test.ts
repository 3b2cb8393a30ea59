import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/model/clock.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import { vercelWorld } from './support/vercel-client.js';

/**
 * @vercel/sdk, unmodified, on the routes issue 42 added or fixed: the
 * account's domains (the SDK requires `echMode`, `suffix`, `userId` and a
 * full creator on each), aliases, redeploy, promote and roll back, and
 * deployment webhooks. Its response validation is strict, so a field the
 * sandbox leaves out fails here.
 */
const teamId = 'team_acme';
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
const fx = useFixture(() => vercelWorld({ clock }), 'all');

describe('@vercel/sdk against the deployments sandbox: account domains and webhooks', () => {
  it("lists and reads the account's domains, personal and a team's", async () => {
    const personal = await fx.vercel.domains.getDomains({});
    expect(personal.domains.map((domain) => domain.name)).toContain('ada.dev');
    expect(personal.domains[0]).toMatchObject({ teamId: null, creator: { username: 'ada' } });
    const team = await fx.vercel.domains.getDomains({ teamId, limit: 1 });
    expect(team.domains).toHaveLength(1);
    const one = await fx.vercel.domains.getDomain({ domain: team.domains[0]?.name ?? '', teamId });
    expect(one.domain).toMatchObject({ name: team.domains[0]?.name, teamId, echMode: 'auto' });
  });

  it('lists aliases, reads one, assigns one to a deployment (moving it keeps its uid) and deletes it', async () => {
    const listed = await fx.vercel.aliases.listAliases({ teamId, projectId: 'shop' });
    expect(listed.aliases.map((alias) => alias.alias)).toEqual(['shop-acme.vercel.app']);
    const seeded = listed.aliases[0]!;
    const shown = await fx.vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId });
    expect(shown).toMatchObject({ uid: seeded.uid, deploymentId: seeded.deploymentId });
    const deployment = await fx.vercel.deployments.createDeployment({
      teamId,
      requestBody: {
        name: 'shop',
        project: 'shop',
        gitSource: { type: 'github', repoId: 2001, ref: 'main' },
      },
    });
    const assigned = await fx.vercel.aliases.assignAlias({
      id: deployment.id,
      teamId,
      requestBody: { alias: 'shop-acme.vercel.app' },
    });
    expect(assigned).toMatchObject({ uid: seeded.uid, oldDeploymentId: seeded.deploymentId });
    const fresh = await fx.vercel.aliases.assignAlias({
      id: deployment.id,
      teamId,
      requestBody: { alias: 'beta.acme.com' },
    });
    expect(await fx.vercel.aliases.deleteAlias({ aliasId: fresh.uid, teamId })).toEqual({
      status: 'SUCCESS',
    });
    await expect(fx.vercel.aliases.getAlias({ idOrAlias: fresh.uid, teamId })).rejects.toThrow();
  });

  it('redeploys, promotes a READY deployment and rolls back to the earlier production one', async () => {
    const [production] = (
      await fx.vercel.deployments.getDeployments({ teamId, projectId: 'shop', target: 'production' })
    ).deployments;
    const rebuilt = await fx.vercel.deployments.createDeployment({
      teamId,
      requestBody: { name: 'shop', deploymentId: production!.uid, target: 'production' },
    });
    expect(rebuilt).toMatchObject({ name: 'shop', readyState: 'QUEUED' });
    clock.advance(60_000);
    await fx.vercel.projects.requestPromote({ projectId: 'shop', deploymentId: rebuilt.id, teamId });
    expect(await fx.vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId })).toMatchObject({
      deploymentId: rebuilt.id,
    });
    await fx.vercel.projects.requestRollback({ projectId: 'shop', deploymentId: production!.uid, teamId });
    expect(await fx.vercel.aliases.getAlias({ idOrAlias: 'shop-acme.vercel.app', teamId })).toMatchObject({
      deploymentId: production!.uid,
    });
  });

  it('creates, lists, reads and deletes a deployment webhook', async () => {
    const created = await fx.vercel.webhooks.createWebhook({
      teamId,
      requestBody: { url: 'http://127.0.0.1:9/hook', events: ['deployment.succeeded'] },
    });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['deployment.succeeded'] });
    const listed = await fx.vercel.webhooks.getWebhooks({ teamId });
    expect(JSON.stringify(listed)).toContain(created.id);
    expect(await fx.vercel.webhooks.getWebhook({ id: created.id, teamId })).toMatchObject({ id: created.id });
    await fx.vercel.webhooks.deleteWebhook({ id: created.id, teamId });
    await expect(fx.vercel.webhooks.getWebhook({ id: created.id, teamId })).rejects.toThrow();
  });
});

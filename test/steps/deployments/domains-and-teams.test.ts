import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach, useFixture } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines } from './deployments-fixture.js';

describe('deployments domain steps', () => {
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme' }));

  it('list_account_domains and get_account_domain read the team’s own domains (issue 42)', async () => {
    fx.clearWire();
    const listed = await fx.invoke('deployments.list_account_domains', { limit: 5 });
    expect(listed.output.domains.map((domain) => domain.name)).toEqual(['acme.com']);
    expect(listed.output.domains[0]).toMatchObject({ team_id: 'team_acme', verified: true, bought: false });
    const shown = await fx.invoke('deployments.get_account_domain', { domain: 'ACME.com' });
    expect(shown.output.domain.intended_nameservers).toEqual(['ns1.vercel-dns.com', 'ns2.vercel-dns.com']);
    expect(lines(fx.wire())).toEqual(['GET /v5/domains', 'GET /v5/domains/acme.com']);
    await expect(
      fx.invoke('deployments.get_account_domain', { domain: 'nowhere.example' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      fx.invokeUnchecked('deployments.get_account_domain', { domain: '../x' }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });

  it('add_domain: verified under a verified apex, else the DNS record to create; list_domains shows both', async () => {
    fx.clearWire();
    const verified = await fx.invoke('deployments.add_domain', { project: 'shop', domain: 'WWW.acme.com' });
    expect(lines(fx.wire())).toEqual(['POST /v10/projects/shop/domains']);
    expect(fx.wire()[0]?.body).toEqual({ name: 'www.acme.com' });
    expect(verified.output).toMatchObject({
      domain: { name: 'www.acme.com', verified: true },
      already_done: false,
    });
    const pending = await fx.invoke('deployments.add_domain', {
      project: 'shop',
      domain: 'shop.example.org',
    });
    expect(pending.output.domain.verification[0]).toMatchObject({
      type: 'TXT',
      domain: '_vercel.example.org',
    });
    const unverified = await fx.invoke('deployments.list_domains', { project: 'shop', verified: false });
    expect(unverified.variables.domains).toEqual(['shop.example.org']);
    const all = await fx.invoke('deployments.list_domains', { project: 'shop', limit: 2 });
    expect(all.output.has_more).toBe(true);
  });

  it('add_domain whose answer was lost reads the domain back instead of adding it twice', async () => {
    fx.clearWire();
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'POST' }));
    const result = await fx.invoke('deployments.add_domain', { project: 'shop', domain: 'www.acme.com' });
    expect(result.output).toMatchObject({ domain: { name: 'www.acme.com' }, already_done: true });
    expect(lines(fx.wire())).toEqual([
      'POST /v10/projects/shop/domains',
      'GET /v9/projects/shop/domains/www.acme.com',
    ]);
  });

  it('remove_domain takes it off; a replay after a lost answer is already_done; outside the scope nothing is sent', async () => {
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'DELETE' }));
    const removed = await fx.invoke('deployments.remove_domain', {
      project: 'shop',
      domain: 'shop.acme.com',
    });
    expect(removed.output).toEqual({ domain: 'shop.acme.com', removed: true, already_done: true });
    const listed = await fx.invoke('deployments.list_domains', { project: 'shop' });
    expect(listed.output.domains).toEqual([]);
    await fx.expectRefusedUnsent({ name: 'PermissionError', sent: false }, () =>
      fx.invoke(
        'deployments.remove_domain',
        { project: 'shop', domain: 'x.acme.com' },
        { constraints: { projects: [] } },
      ),
    );
  });

  it('a domain name that is not one is an input error, nothing sent', async () => {
    await fx.expectRefusedUnsent({ name: 'InputError' }, () =>
      fx.invoke('deployments.add_domain', { project: 'shop', domain: '../evil' }),
    );
  });
});

describe('deployments team steps', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  it("list_teams names the user's teams and role", async () => {
    fx = await deploymentsFixture();
    const result = await fx.invoke('deployments.list_teams', {});
    expect(result.output.teams).toEqual([
      expect.objectContaining({ id: 'team_acme', slug: 'acme', role: 'OWNER' }),
    ]);
    expect(result.variables.team_ids).toEqual(['team_acme']);
  });

  it("list_team_members calls /v3/teams/{team}/members, defaulting to the connection's team, with search and role", async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    fx.clearWire();
    const all = await fx.invoke('deployments.list_team_members', {});
    expect(lines(fx.wire())).toEqual(['GET /v3/teams/team_acme/members']);
    expect(fx.wire()[0]?.query.has('teamId')).toBe(false);
    expect(all.output.members.map((member) => member.username)).toEqual(['sam', 'ada']);
    const owners = await fx.invoke('deployments.list_team_members', { role: 'OWNER' });
    expect(owners.variables.emails).toEqual(['ada@acme.example']);
    const found = await fx.invoke('deployments.list_team_members', { search: 'BUILDER' });
    expect(found.output.members).toMatchObject([{ user_id: 'user_sam', role: 'MEMBER' }]);
    const paged = await fx.invoke('deployments.list_team_members', { limit: 1 });
    const rest = await fx.invoke('deployments.list_team_members', {
      limit: 1,
      cursor: paged.output.next_cursor!,
    });
    expect([...paged.output.members, ...rest.output.members].map((member) => member.username)).toEqual([
      'sam',
      'ada',
    ]);
  });

  it("a personal connection must name the team; another user's team is the provider's 403", async () => {
    fx = await deploymentsFixture();
    await fx.expectRefusedUnsent({ name: 'InputError' }, () =>
      fx.invoke('deployments.list_team_members', {}),
    );
    await expect(fx.invoke('deployments.list_team_members', { team: 'team_globex' })).rejects.toMatchObject({
      name: 'PermissionError',
      status: 403,
    });
  });

  it('teams are account-wide: refused unsent when the connection is limited to some projects', async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    const constraints = { constraints: { projects: ['shop'] } };
    await fx.expectRefusedUnsent(
      { sent: false },
      () => fx.invoke('deployments.list_teams', {}, constraints),
      () => fx.invoke('deployments.list_team_members', {}, constraints),
      () => fx.invoke('deployments.list_account_domains', {}, constraints),
      () => fx.invoke('deployments.get_account_domain', { domain: 'acme.com' }, constraints),
    );
  });
});

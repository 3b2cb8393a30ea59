import { describe, expect, it } from 'vitest';
import { CONTROL_HEADER } from '../../../sandbox/index.js';
import { resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { deploymentsFixture, lines } from './deployments-fixture.js';

/**
 * Verify Project Domain and Get Domain Configuration (issue 42) against the
 * sandbox, whose stand-in for public DNS a test sets: in process with
 * `setDns`, or as a script would, through the twin seed's `dns_records`.
 */
describe('deployments domain checks', () => {
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme' }));

  /** Adds DNS records through the sandbox's control route, as a developer's script would. */
  async function seedDns(records: { name: string; type: string; value: string }[]) {
    const response = await fetch(`${fx.sandbox.url}/_sandbox/seed/deployments`, {
      method: 'POST',
      headers: { [CONTROL_HEADER]: '1', 'content-type': 'application/json' },
      body: JSON.stringify({ dns_records: records }),
    });
    expect(response.status).toBe(200);
  }

  it('verify_project_domain: not verified while the TXT record is missing or wrong, verified once it is there', async () => {
    const added = await fx.invoke('deployments.add_domain', { project: 'shop', domain: 'shop.example.org' });
    const challenge = added.output.domain.verification[0]!;
    fx.clearWire();
    const missing = await fx.invoke('deployments.verify_project_domain', {
      project: 'shop',
      domain: 'shop.example.org',
    });
    expect(lines(fx.wire())).toEqual([
      'POST /v9/projects/shop/domains/shop.example.org/verify',
      'GET /v9/projects/shop/domains/shop.example.org',
    ]);
    expect(missing.output.domain).toMatchObject({ verified: false, verification: [challenge] });
    expect(missing.output.reason).toMatch(/missing the required TXT record/);
    expect(missing.variables).toMatchObject({ verified: false, domain: 'shop.example.org' });

    fx.sandbox.deployments.setDns(challenge.domain, [{ type: 'TXT', value: 'vc-domain-verify=other,x' }]);
    const wrong = await fx.invoke('deployments.verify_project_domain', {
      project: 'shop',
      domain: 'shop.example.org',
    });
    expect(wrong.output.reason).toMatch(/does not match/);

    await seedDns([{ name: challenge.domain, type: 'TXT', value: challenge.value }]);
    fx.clearWire();
    const verified = await fx.invoke('deployments.verify_project_domain', {
      project: 'shop',
      domain: 'SHOP.example.org',
    });
    expect(lines(fx.wire())).toEqual(['POST /v9/projects/shop/domains/shop.example.org/verify']);
    expect(verified.output).toMatchObject({ domain: { verified: true, verification: [] }, reason: null });
    const listed = await fx.invoke('deployments.list_domains', { project: 'shop', verified: false });
    expect(listed.output.domains).toEqual([]);
  });

  it('verify_project_domain: a lost answer is replayed (verifying twice is once); a domain not on the project is NotFoundError', async () => {
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'POST' }));
    fx.clearWire();
    const result = await fx.invoke('deployments.verify_project_domain', {
      project: 'shop',
      domain: 'shop.acme.com',
    });
    expect(result.output).toMatchObject({ domain: { name: 'shop.acme.com', verified: true }, reason: null });
    expect(lines(fx.wire())).toEqual([
      'POST /v9/projects/shop/domains/shop.acme.com/verify',
      'POST /v9/projects/shop/domains/shop.acme.com/verify',
    ]);
    await expect(
      fx.invoke('deployments.verify_project_domain', { project: 'docs', domain: 'shop.acme.com' }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('get_domain_config: how the DNS points at the provider, and the records to set', async () => {
    fx.clearWire();
    const pointed = await fx.invoke('deployments.get_domain_config', {
      domain: 'shop.acme.com',
      project: 'shop',
    });
    expect(lines(fx.wire())).toEqual(['GET /v6/domains/shop.acme.com/config']);
    expect(fx.wire()[0]?.query.get('projectIdOrName')).toBe('shop');
    expect(pointed.output).toEqual({
      domain: 'shop.acme.com',
      config: {
        misconfigured: false,
        configured_by: 'CNAME',
        accepted_challenges: ['http-01'],
        recommended_records: [
          { type: 'CNAME', value: 'cname.vercel-dns.com.', rank: 1 },
          { type: 'A', value: '76.76.21.21', rank: 1 },
        ],
      },
    });
    const apex = await fx.invoke('deployments.get_domain_config', { domain: 'acme.com' });
    expect(apex.variables).toEqual({ misconfigured: true, configured_by: null });
    expect(apex.output.config.recommended_records).toEqual([{ type: 'A', value: '76.76.21.21', rank: 1 }]);
    fx.sandbox.deployments.setDns('acme.com', [{ type: 'A', value: '76.76.21.21' }]);
    const fixed = await fx.invoke('deployments.get_domain_config', { domain: 'acme.com' });
    expect(fixed.output.config).toMatchObject({ misconfigured: false, configured_by: 'A' });
    await expect(
      fx.invoke('deployments.get_domain_config', { domain: 'acme.com', project: 'nope' }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('under project scoping: the project is required and in scope, and the domain must be on it', async () => {
    const scoped = { constraints: { projects: ['shop'] } };
    await fx.expectRefusedUnsent(
      { name: 'PermissionError', sent: false },
      () => fx.invoke('deployments.get_domain_config', { domain: 'shop.acme.com' }, scoped),
      () => fx.invoke('deployments.get_domain_config', { domain: 'docs.acme.com', project: 'docs' }, scoped),
      () =>
        fx.invoke('deployments.verify_project_domain', { project: 'docs', domain: 'docs.acme.com' }, scoped),
    );
    fx.clearWire();
    await expect(
      fx.invoke('deployments.get_domain_config', { domain: 'acme.com', project: 'shop' }, scoped),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(lines(fx.wire())).toEqual(['GET /v9/projects/shop/domains/acme.com']);
    const allowed = await fx.invoke(
      'deployments.get_domain_config',
      { domain: 'shop.acme.com', project: 'shop' },
      scoped,
    );
    expect(allowed.output.config.misconfigured).toBe(false);
  });
});

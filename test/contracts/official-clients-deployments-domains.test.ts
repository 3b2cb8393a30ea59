import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { vercelWorld } from './support/vercel-client.js';

/**
 * @vercel/sdk, unmodified, on the domain checks issue 42 added: verifying a
 * project domain (refused while its TXT record is missing, then verified)
 * and reading a domain's DNS configuration. Its response validation is
 * strict, so a field the sandbox leaves out or misspells fails here.
 */
const teamId = 'team_acme';
const fx = useFixture(() => vercelWorld(), 'all');

describe('@vercel/sdk against the deployments sandbox: domain verification and configuration', () => {
  it('verifies a project domain once its TXT record exists, and again when already verified', async () => {
    const added = await fx.vercel.projects.addProjectDomain({
      idOrName: 'shop',
      teamId,
      requestBody: { name: 'store.example.net' },
    });
    expect(added).toMatchObject({ verified: false });
    const [challenge] = added.verification ?? [];
    await expect(
      fx.vercel.projects.verifyProjectDomain({ idOrName: 'shop', domain: 'store.example.net', teamId }),
    ).rejects.toThrow(/missing_txt_record|TXT/);
    fx.sandbox.deployments.setDns(challenge!.domain, [{ type: 'TXT', value: challenge!.value }]);
    const verified = await fx.vercel.projects.verifyProjectDomain({
      idOrName: 'shop',
      domain: 'store.example.net',
      teamId,
    });
    expect(verified).toMatchObject({ name: 'store.example.net', apexName: 'example.net', verified: true });
    const again = await fx.vercel.projects.verifyProjectDomain({
      idOrName: 'shop',
      domain: 'store.example.net',
      teamId,
    });
    expect(again.verified).toBe(true);
  });

  it("reads a domain's configuration: pointed by CNAME, or misconfigured with the records to set", async () => {
    const pointed = await fx.vercel.domains.getDomainConfig({
      domain: 'shop.acme.com',
      projectIdOrName: 'shop',
      teamId,
    });
    expect(pointed).toMatchObject({
      configuredBy: 'CNAME',
      misconfigured: false,
      acceptedChallenges: ['http-01'],
    });
    const apex = await fx.vercel.domains.getDomainConfig({ domain: 'acme.com', strict: 'true', teamId });
    expect(apex).toEqual({
      configuredBy: null,
      acceptedChallenges: [],
      recommendedIPv4: [{ rank: 1, value: ['76.76.21.21'] }],
      recommendedCNAME: [],
      misconfigured: true,
    });
  });
});

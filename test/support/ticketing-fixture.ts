import type { SandboxOptions } from '../../sandbox/index.js';
import type { RuntimeOptions } from '../../src/runtime/runtime.js';
import { type SandboxFixture, sandboxFixture } from './sandbox-fixture.js';

export type TicketingFixture = SandboxFixture;

/** A sandbox with a ticketing connection issued for the seeded admin, on a manual clock. */
export function ticketingFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; subdomain?: string } = {},
): Promise<TicketingFixture> {
  const subdomain = options.subdomain ?? 'acme';
  return sandboxFixture({
    ...options,
    connections: (sandbox, clock) => {
      const tokens = sandbox.ticketing.issueTokens(subdomain);
      return [
        {
          id: 'tickets-main',
          integration: 'ticketing',
          label: 'Acme support',
          kind: 'oauth2',
          fields: { subdomain, baseUrl: sandbox.baseUrl('ticketing', subdomain), clientId: 'toolsteps-cli' },
          secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
          expiresAt: clock.now() + (tokens.expires_in ?? 1800) * 1000,
        },
      ];
    },
  });
}

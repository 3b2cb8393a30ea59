import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { readAnswer } from './provider-answer.js';

/** `GET /v6/domains/{domain}/config` as the provider's description has it (every field required). */
const ProviderDomainConfig = builtOnce(() =>
  z
    .object({
      configuredBy: z.string().nullable(),
      acceptedChallenges: z.array(z.string()),
      recommendedIPv4: z.array(z.object({ rank: z.number(), value: z.array(z.string()) }).loose()),
      recommendedCNAME: z.array(z.object({ rank: z.number(), value: z.string() }).loose()),
      misconfigured: z.boolean(),
    })
    .loose(),
);

/** How a domain's DNS points at the provider, and the records that would point it there. */
export const DomainConfig = builtOnce(() =>
  z.object({
    misconfigured: z
      .boolean()
      .describe(
        'True when the domain does not point at the provider (or no certificate can be issued for it): set one of recommended_records.',
      ),
    configured_by: z
      .string()
      .nullable()
      .describe(
        'How it points at the provider: CNAME, A, http (through a proxy) or dns-01; null when it does not.',
      ),
    accepted_challenges: z
      .array(z.string())
      .describe('Certificate challenges the domain can pass: dns-01, http-01.'),
    recommended_records: z
      .array(
        z.object({
          type: z.enum(['CNAME', 'A']).describe('DNS record type to set on the domain.'),
          value: z.string().describe('Its value: a hostname for CNAME, an IPv4 address for A.'),
          rank: z.number().describe('1 is the preferred choice; one record of either type is enough.'),
        }),
      )
      .describe(
        'Records that would point the domain at the provider, best first (CNAME ones first on a tie).',
      ),
  }),
);
export type DomainConfig = z.infer<ReturnType<typeof DomainConfig>>;

/** The provider's answer as `DomainConfig`: both recommendation lists as one, by rank. */
export function toDomainConfig(raw: unknown, where: string): DomainConfig {
  const value = readAnswer(ProviderDomainConfig(), raw, where, "a domain's configuration");
  const records = [
    ...value.recommendedCNAME.map(({ rank, value: host }) => ({ type: 'CNAME' as const, value: host, rank })),
    ...value.recommendedIPv4.flatMap(({ rank, value: addresses }) =>
      addresses.map((address) => ({ type: 'A' as const, value: address, rank })),
    ),
  ];
  return {
    misconfigured: value.misconfigured,
    configured_by: value.configuredBy,
    accepted_challenges: value.acceptedChallenges,
    // A stable sort keeps CNAME records before A records of the same rank.
    recommended_records: records.sort((a, b) => a.rank - b.rank),
  };
}

import * as z from 'zod';
import { builtOnce, PathSegment } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

/** A hostname: lowercase labels of letters, digits and hyphens, and a top-level label of letters. */
export const DomainName = builtOnce(() =>
  PathSegment()
    .transform((value) => value.toLowerCase())
    .pipe(
      z
        .string()
        .regex(
          /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
          'a domain name such as www.example.com',
        ),
    )
    .describe('Domain name, e.g. "www.example.com".'),
);

const ProviderProjectDomain = builtOnce(() =>
  z
    .object({
      name: z.string(),
      apexName: z.string().optional(),
      projectId: z.string().optional(),
      redirect: z.string().nullable().optional(),
      redirectStatusCode: z.number().nullable().optional(),
      gitBranch: z.string().nullable().optional(),
      verified: z.boolean(),
      verification: z
        .array(
          z.object({ type: z.string(), domain: z.string(), value: z.string(), reason: z.string() }).loose(),
        )
        .optional(),
      createdAt: z.number().optional(),
    })
    .loose(),
);

export const ProjectDomain = builtOnce(() =>
  z.object({
    name: z.string().describe('The domain.'),
    apex_name: z.string().nullable().describe('Its apex (registrable) domain.'),
    project_id: z.string().nullable().describe('Project it is assigned to.'),
    verified: z
      .boolean()
      .describe('True when it serves the project; false until the DNS record in verification exists.'),
    verification: z
      .array(
        z.object({
          type: z.string().describe('DNS record type, e.g. TXT.'),
          domain: z.string().describe('Record name to create.'),
          value: z.string().describe('Record value to set.'),
          reason: z.string().describe('Why the record is needed, e.g. pending_domain_verification.'),
        }),
      )
      .describe('DNS records to create before the domain is verified; empty once verified.'),
    redirect: z.string().nullable().describe('Domain it redirects to, if it is a redirect.'),
    git_branch: z.string().nullable().describe('Branch whose deployments it serves, when not production.'),
    created_at: z.string().nullable().describe('ISO 8601 time it was added.'),
  }),
);
export type ProjectDomain = z.infer<ReturnType<typeof ProjectDomain>>;

export function toProjectDomain(raw: unknown, where = 'domain'): ProjectDomain {
  const value = readAnswer(ProviderProjectDomain(), raw, where, 'a project domain');
  return {
    name: value.name,
    apex_name: value.apexName ?? null,
    project_id: value.projectId ?? null,
    verified: value.verified,
    verification: (value.verification ?? []).map(({ type, domain, value: record, reason }) => ({
      type,
      domain,
      value: record,
      reason,
    })),
    redirect: value.redirect ?? null,
    git_branch: value.gitBranch ?? null,
    created_at: isoTime(value.createdAt),
  };
}

const ProviderAccountDomain = builtOnce(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      verified: z.boolean(),
      serviceType: z.string().optional(),
      nameservers: z.array(z.string()).optional(),
      intendedNameservers: z.array(z.string()).optional(),
      teamId: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      expiresAt: z.number().nullable().optional(),
      boughtAt: z.number().nullable().optional(),
    })
    .loose(),
);

/** A domain of the account (not of one project): registered or added, with its nameservers. */
export const AccountDomain = builtOnce(() =>
  z.object({
    id: z.string().describe('Domain id.'),
    name: z.string().describe('The domain, e.g. acme.com.'),
    verified: z.boolean().describe('True when its ownership is verified.'),
    service_type: z
      .string()
      .nullable()
      .describe('external (DNS elsewhere), zeit.world (DNS with the provider) or na.'),
    nameservers: z.array(z.string()).describe('Its current nameservers.'),
    intended_nameservers: z.array(z.string()).describe("The provider's nameservers, to point it at them."),
    team_id: z.string().nullable().describe('Team that owns it; null for a personal domain.'),
    created_at: z.string().nullable().describe('ISO 8601 time it was added.'),
    expires_at: z.string().nullable().describe('ISO 8601 expiry, when bought through the provider.'),
    bought: z.boolean().describe('True when it was bought through the provider.'),
  }),
);
export type AccountDomain = z.infer<ReturnType<typeof AccountDomain>>;

export function toAccountDomain(raw: unknown, where = 'domain'): AccountDomain {
  const value = readAnswer(ProviderAccountDomain(), raw, where, 'an account domain');
  return {
    id: value.id,
    name: value.name,
    verified: value.verified,
    service_type: value.serviceType ?? null,
    nameservers: value.nameservers ?? [],
    intended_nameservers: value.intendedNameservers ?? [],
    team_id: value.teamId ?? null,
    created_at: isoTime(value.createdAt),
    expires_at: isoTime(value.expiresAt),
    bought: value.boughtAt != null,
  };
}

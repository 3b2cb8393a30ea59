import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import type { Company, Person, PersonSummary } from './anz-schema.js';

/**
 * What the provider answers, read leniently (unknown members are kept out,
 * missing ones become null) and shaped into our outputs. The sandbox answers
 * in this shape; re-pointing to the provider's own API changes this file and
 * the table in index.ts, nothing else.
 */

const text = builtOnce(() => z.string().nullish());

const ProviderLocation = builtOnce(() => z.object({ city: text(), state: text(), country: text() }));

const ProviderPerson = builtOnce(() =>
  z.object({
    full_name: z.string(),
    first_name: text(),
    last_name: text(),
    job: z.object({ title: text(), seniority: text(), department: text() }).nullish(),
    company: z.object({ name: z.string(), domain: text() }).nullish(),
    location: ProviderLocation().nullish(),
    emails: z.array(z.object({ address: z.string(), type: text(), status: text() })).nullish(),
    phones: z.array(z.object({ number: z.string(), type: text() })).nullish(),
    profile_url: text(),
    profile_slug: text(),
  }),
);
type ProviderPerson = z.infer<ReturnType<typeof ProviderPerson>>;

const ProviderCompany = builtOnce(() =>
  z.object({
    name: z.string(),
    legal_name: text(),
    abn: text(),
    domain: text(),
    website: text(),
    profile_url: text(),
    industry: text(),
    size_range: text(),
    employee_count: z.number().int().nullish(),
    headquarters: ProviderLocation().nullish(),
    technologies: z.array(z.string()).nullish(),
    founded_year: z.number().int().nullish(),
  }),
);

/**
 * A no-match is `{"match": false}`, an empty body (null, as the transport
 * hands an empty body over), or a null record: never an error.
 */
export const PersonAnswer = builtOnce(() =>
  z.object({ match: z.boolean().optional(), person: ProviderPerson().nullish() }).nullable(),
);
export const CompanyAnswer = builtOnce(() =>
  z.object({ match: z.boolean().optional(), company: ProviderCompany().nullish() }).nullable(),
);
export const SearchAnswer = builtOnce(() =>
  z
    .object({
      total: z.number().int().nonnegative().optional(),
      results: z.array(ProviderPerson()).default([]),
    })
    .nullable(),
);

function location(
  value: z.infer<ReturnType<typeof ProviderLocation>> | null | undefined,
): z.input<ReturnType<typeof Company>>['location'] {
  if (!value) return null;
  return { city: value.city ?? null, state: value.state ?? null, country: value.country ?? null };
}

export function toPersonSummary(person: ProviderPerson): z.input<ReturnType<typeof PersonSummary>> {
  return {
    full_name: person.full_name,
    job_title: person.job?.title ?? null,
    seniority: person.job?.seniority ?? null,
    department: person.job?.department ?? null,
    company: person.company ? { name: person.company.name, domain: person.company.domain ?? null } : null,
    location: location(person.location),
    profile_url: person.profile_url ?? null,
    profile_slug: person.profile_slug ?? null,
  };
}

export function toPerson(person: ProviderPerson): z.input<ReturnType<typeof Person>> {
  return {
    ...toPersonSummary(person),
    first_name: person.first_name ?? null,
    last_name: person.last_name ?? null,
    emails: (person.emails ?? []).map((email) => ({
      address: email.address,
      type: email.type ?? 'other',
      verified: email.status === 'verified',
    })),
    phones: (person.phones ?? []).map((phone) => ({ number: phone.number, type: phone.type ?? 'other' })),
  };
}

export function toCompany(
  company: z.infer<ReturnType<typeof ProviderCompany>>,
): z.input<ReturnType<typeof Company>> {
  return {
    name: company.name,
    legal_name: company.legal_name ?? null,
    abn: company.abn ? company.abn.replace(/\s+/g, '') : null,
    domain: company.domain ?? null,
    website: company.website ?? null,
    profile_url: company.profile_url ?? null,
    industry: company.industry ?? null,
    size: company.size_range ?? null,
    employee_count: company.employee_count ?? null,
    location: location(company.headquarters),
    technologies: company.technologies ?? [],
    founded_year: company.founded_year ?? null,
  };
}

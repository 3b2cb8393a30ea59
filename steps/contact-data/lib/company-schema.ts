import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { Location, locationFromWire } from './contact-schema.js';
import { WireId, WireLocation } from './wire.js';

/** A web domain, loosely: the provider normalizes `https://www.acme.com/about` to `acme.com` itself. */
const Domain = builtOnce(() =>
  z
    .string()
    .trim()
    .min(3)
    .max(253)
    .regex(/^(https?:\/\/)?[a-z0-9.-]+\.[a-z]{2,}(\/.*)?$/i, 'a web domain such as acme.com')
    .describe('Web domain of the company, e.g. acme.com.'),
);

/** How to identify one company: exactly one of domain or name. */
export const CompanyLookup = builtOnce(() =>
  z
    .strictObject({
      domain: Domain().optional(),
      name: z.string().trim().min(1).max(200).optional().describe('Company name, e.g. Acme Corporation.'),
    })
    .superRefine((value, context) => {
      const ways = [value.domain, value.name].filter((way) => way !== undefined).length;
      if (ways !== 1) {
        context.addIssue({
          code: 'custom',
          message:
            ways === 0
              ? 'give one way to identify the company: domain or name'
              : 'give exactly one of domain or name, not both',
        });
      }
    })
    .describe('One company: exactly one of domain or name.'),
);
export type CompanyLookup = z.output<ReturnType<typeof CompanyLookup>>;

export function companyLookupToWire(lookup: CompanyLookup): Record<string, string> {
  return lookup.domain !== undefined ? { domain: lookup.domain } : { name: lookup.name! };
}

/** Firmographics of one company. */
export const Company = builtOnce(() =>
  z
    .object({
      id: z.string().describe('The provider id of the company.'),
      name: z.string().nullable().describe('Company name.'),
      domain: z.string().nullable().describe('Web domain.'),
      industry: z.string().nullable().describe('Industry.'),
      size: z.string().nullable().describe('Size band as the provider gives it, e.g. "201-500" employees.'),
      employee_count: z.number().int().nullable().describe('Estimated number of employees.'),
      location: Location().nullable(),
      technologies: z.array(z.string()).describe('Technologies the company is known to use.'),
      revenue: z
        .object({
          range: z.string().nullable().describe('Annual revenue band, e.g. "$10M-$50M".'),
          annual_usd: z.number().nullable().describe('Estimated annual revenue in US dollars.'),
        })
        .nullable()
        .describe('Annual revenue; null when unknown.'),
      founded_year: z.number().int().nullable().describe('Year founded.'),
      profile_url: z.string().nullable().describe('Public company profile URL.'),
    })
    .describe('Company firmographics.'),
);
export type Company = z.output<ReturnType<typeof Company>>;

export const WireCompany = builtOnce(() =>
  z
    .object({
      id: WireId(),
      name: z.string().nullish(),
      domain: z.string().nullish(),
      industry: z.string().nullish(),
      companySize: z.string().nullish(),
      employees: z.number().nullish(),
      location: WireLocation().nullish(),
      technologies: z.array(z.string()).nullish(),
      revenue: z.object({ range: z.string().nullish(), amount: z.number().nullish() }).loose().nullish(),
      founded: z.number().nullish(),
      linkedinUrl: z.string().nullish(),
    })
    .loose(),
);

export function companyFromWire(company: z.output<ReturnType<typeof WireCompany>>): Company {
  return {
    id: company.id,
    name: company.name ?? null,
    domain: company.domain ?? null,
    industry: company.industry ?? null,
    size: company.companySize ?? null,
    employee_count: company.employees == null ? null : Math.round(company.employees),
    location: locationFromWire(company.location),
    technologies: company.technologies ?? [],
    revenue: company.revenue
      ? { range: company.revenue.range ?? null, annual_usd: company.revenue.amount ?? null }
      : null,
    founded_year: company.founded == null ? null : Math.round(company.founded),
    profile_url: company.linkedinUrl ?? null,
  };
}

/** A company lookup as the find and enrich steps send it and read it back: request, answer, and the mapping between them. */
export const companyLookup = builtOnce(() => ({
  lookup: CompanyLookup(),
  toWire: companyLookupToWire,
  wire: WireCompany(),
  item: Company(),
  fromWire: companyFromWire,
}));

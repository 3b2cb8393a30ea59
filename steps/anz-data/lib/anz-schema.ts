import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/**
 * Shapes the ANZ data steps hand to users, in our snake_case. The provider's
 * own shapes live in provider-records.ts; nothing here mirrors them by hand.
 */

/**
 * Search filters are free text the provider matches (the spec: `seniority`
 * and `department` are strings); the spec shows no vocabulary, so none of
 * ours is imposed: a closed list would refuse values the provider knows.
 */
export const Seniority = builtOnce(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Seniority level as the provider names it, e.g. "director", "manager", "C-suite", "senior".'),
);

export const Department = builtOnce(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Department as the provider names it, e.g. "engineering", "sales", "human resources".'),
);

export const Location = builtOnce(() =>
  z
    .object({
      city: z.string().nullable().describe('City or town, e.g. Sydney or Auckland.'),
      state: z
        .string()
        .nullable()
        .describe('State, territory or region, e.g. NSW; null in New Zealand if unknown.'),
      country: z.string().nullable().describe('Country name, e.g. Australia or New Zealand.'),
    })
    .describe('Where the person works or the company is headquartered.'),
);

export const Email = builtOnce(() =>
  z.object({
    address: z.string().describe('Email address.'),
    type: z.string().describe('work, personal or other.'),
    verified: z.boolean().describe('True when the provider has verified the address delivers.'),
  }),
);

export const Phone = builtOnce(() =>
  z.object({
    number: z.string().describe('Phone number in E.164 form, e.g. +61491570156.'),
    type: z.string().describe('mobile, direct, office or other.'),
  }),
);

export const CompanyRef = builtOnce(() =>
  z
    .object({
      name: z.string().describe('Company name.'),
      domain: z.string().nullable().describe('Company web domain, e.g. wattle-analytics.example.'),
    })
    .describe('The company the person works at.'),
);

/** What a search returns per person: a profile without contact details. */
export const PersonSummary = builtOnce(() =>
  z.object({
    full_name: z.string().describe('Full name.'),
    job_title: z.string().nullable().describe('Current job title.'),
    seniority: z.string().nullable().describe('Seniority level, e.g. director or manager.'),
    department: z.string().nullable().describe('Department, e.g. engineering or sales.'),
    company: CompanyRef().nullable(),
    location: Location().nullable(),
    profile_url: z.string().nullable().describe('Public profile URL; enrich it to get contact details.'),
    profile_slug: z.string().nullable().describe('Profile slug: the last part of the profile URL.'),
  }),
);

/** Contact details from an enrichment: emails, phones, job title, company, location. */
export const Person = builtOnce(() =>
  PersonSummary().extend({
    first_name: z.string().nullable().describe('Given name.'),
    last_name: z.string().nullable().describe('Family name.'),
    emails: z.array(Email()).describe('Email addresses, best first; empty when none is known.'),
    phones: z.array(Phone()).describe('Phone numbers, best first; empty when none is known.'),
  }),
);

/** Firmographics: size, industry, location, employee count, technologies, ABN. */
export const Company = builtOnce(() =>
  z.object({
    name: z.string().describe('Trading name.'),
    legal_name: z.string().nullable().describe('Registered legal name.'),
    abn: z
      .string()
      .nullable()
      .describe('Australian Business Number, 11 digits; null for companies outside Australia.'),
    domain: z.string().nullable().describe('Primary web domain.'),
    website: z.string().nullable().describe('Website URL.'),
    profile_url: z.string().nullable().describe('Public company profile URL.'),
    industry: z.string().nullable().describe('Industry, e.g. Logistics or Software.'),
    size: z.string().nullable().describe('Employee band, e.g. 51-200.'),
    employee_count: z.number().int().nullable().describe('Estimated number of employees.'),
    location: Location().nullable(),
    technologies: z.array(z.string()).describe('Technologies the company is known to use.'),
    founded_year: z.number().int().nullable().describe('Year the company was founded.'),
  }),
);

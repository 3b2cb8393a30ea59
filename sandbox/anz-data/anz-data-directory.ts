import { definedOnly } from '../../src/values/defined-only.js';
import {
  COMPANY_RECORDS,
  type CompanyRecord,
  type LocationRecord,
  PERSON_RECORDS,
  type PersonRecord,
} from './anz-data-records.js';

/** Where the sandbox's fake profiles live; any host is accepted on lookup, only the path counts. */
export const PROFILE_HOST = 'https://profiles.example';

const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/**
 * The provider's own ABN check, written separately from the step's: the
 * emulator stands in for the provider and must not borrow our validation,
 * or a bug in it would hide itself.
 */
export function abnChecksumOk(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = WEIGHTS.reduce((total, weight, index) => {
    const digit = Number(digits[index]) - (index === 0 ? 1 : 0);
    return total + digit * weight;
  }, 0);
  return sum % 89 === 0;
}

function bareHost(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}

/** `/in/<slug>` or `/company/<slug>` of a profile URL, or undefined. */
function profileSlug(url: string, kind: 'in' | 'company'): string | undefined {
  try {
    const segments = new URL(url).pathname.split('/').filter(Boolean);
    return segments[0] === kind && segments[1] ? decodeURIComponent(segments[1]).toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The person (`/in/`) or company (`/company/`) a profile URL points at, found by its slug. */
function atProfileUrl<T extends { slug: string }>(
  records: readonly T[],
  url: string,
  kind: 'in' | 'company',
): T | undefined {
  const slug = profileSlug(url, kind);
  return slug ? records.find((record) => record.slug === slug) : undefined;
}

const companiesById = new Map(COMPANY_RECORDS.map((company) => [company.id, company]));

function locationJson(location: LocationRecord) {
  return {
    city: location.city,
    state: location.state,
    country: location.country,
    country_code: location.country === 'Australia' ? 'AU' : 'NZ',
  };
}

/** A person as the provider answers: contact details only when `withContacts`. */
export function personJson(record: PersonRecord, withContacts: boolean) {
  const company = companiesById.get(record.company);
  return {
    id: record.id,
    full_name: `${record.first_name} ${record.last_name}`,
    first_name: record.first_name,
    last_name: record.last_name,
    job: { title: record.title, seniority: record.seniority, department: record.department },
    company: company
      ? { name: company.name, domain: company.domain, profile_url: `${PROFILE_HOST}/company/${company.slug}` }
      : null,
    location: locationJson(record.location),
    profile_url: `${PROFILE_HOST}/in/${record.slug}`,
    profile_slug: record.slug,
    // Contact details only where the caller paid for them.
    ...definedOnly({
      emails: withContacts ? record.emails : undefined,
      phones: withContacts ? record.phones : undefined,
    }),
  };
}

export function companyJson(record: CompanyRecord) {
  return {
    id: record.id,
    name: record.name,
    legal_name: record.legal_name,
    // The provider formats ABNs the way the register prints them.
    abn: record.abn ? record.abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4') : null,
    domain: record.domain,
    website: `https://www.${record.domain}`,
    profile_url: `${PROFILE_HOST}/company/${record.slug}`,
    industry: record.industry,
    size_range: record.size_range,
    employee_count: record.employee_count,
    headquarters: locationJson(record.headquarters),
    technologies: record.technologies,
    founded_year: record.founded_year,
  };
}

/** Whether a person has anything that costs the second credit. */
export function hasContacts(record: PersonRecord): boolean {
  return record.emails.length > 0 || record.phones.length > 0;
}

export function findPerson(field: string, value: string): PersonRecord | undefined {
  const wanted = value.trim().toLowerCase();
  switch (field) {
    case 'email':
      return PERSON_RECORDS.find((record) => record.emails.some((email) => email.address === wanted));
    case 'profile_slug':
      return PERSON_RECORDS.find((record) => record.slug === wanted);
    case 'profile_url':
      return atProfileUrl(PERSON_RECORDS, value, 'in');
    default:
      return undefined;
  }
}

export function findCompany(field: string, value: string): CompanyRecord | undefined {
  switch (field) {
    case 'domain':
      return COMPANY_RECORDS.find((record) => record.domain === bareHost(value));
    case 'website': {
      let host: string;
      try {
        host = bareHost(new URL(value).hostname);
      } catch {
        return undefined;
      }
      return COMPANY_RECORDS.find((record) => record.domain === host);
    }
    case 'abn': {
      const digits = value.replace(/\s+/g, '');
      return COMPANY_RECORDS.find((record) => record.abn === digits);
    }
    case 'profile_url':
      return atProfileUrl(COMPANY_RECORDS, value, 'company');
    default:
      return undefined;
  }
}

export interface SearchCriteria {
  company?: string;
  position?: string;
  seniority?: string;
  department?: string;
  /** Part of the person's city, state or country, case-insensitive. */
  location?: string;
  /** Exactly the company's size band, e.g. "51-200". */
  company_size?: string;
}

/** Filters combine (AND); company matches the start of a name or the domain; position matches every word. */
/** The words of a value, in lower case: "C-Suite" and "c_suite" are the same two words. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

/**
 * Seniority and department are free text the provider matches: every word
 * of one is a word of the other ("engineering" finds "software engineering";
 * "VP Engineering" finds "vp"). Nothing is refused.
 */
function freeTextMatches(value: string, query: string): boolean {
  const have = words(value);
  const want = words(query);
  if (!have.length || !want.length) return false;
  return want.every((word) => have.includes(word)) || have.every((word) => want.includes(word));
}

/** A location filter finds part of the city, the state or the country. */
function placeMatches(record: PersonRecord, query: string): boolean {
  const wanted = query.trim().toLowerCase();
  const { city, state, country } = record.location;
  return [city, state, country].some((place) => place?.toLowerCase().includes(wanted));
}

export function searchPeople(criteria: SearchCriteria): PersonRecord[] {
  const companyTerm = criteria.company?.trim().toLowerCase();
  const positionWords = criteria.position?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  return PERSON_RECORDS.filter((record) => {
    const company = companiesById.get(record.company);
    if (companyTerm) {
      const byName = company?.name.toLowerCase().startsWith(companyTerm);
      const byDomain = company?.domain === bareHost(companyTerm);
      if (!byName && !byDomain) return false;
    }
    if (positionWords.length) {
      const title = record.title.toLowerCase();
      if (!positionWords.every((word) => title.includes(word))) return false;
    }
    if (criteria.seniority && !freeTextMatches(record.seniority, criteria.seniority)) return false;
    if (criteria.department && !freeTextMatches(record.department, criteria.department)) return false;
    if (criteria.company_size && company?.size_range !== criteria.company_size) return false;
    return !criteria.location || placeMatches(record, criteria.location);
  });
}

/**
 * The emulated provider's data: 12 companies and 2,000 people, generated
 * from fixed lists so every run (and every test) sees the same records.
 * Everything is fake; domains use the reserved `.example` suffix.
 */
import { COMPANY_SEEDS, FIRST_NAMES, JOB_TITLES, LAST_NAMES } from './contact-data-seed.js';

export interface DirectoryCompany {
  id: string;
  name: string;
  domain: string;
  industry: string;
  /** The provider's size band. */
  companySize: string;
  employees: number;
  location: { city: string; state: string; country: string };
  technologies: string[];
  revenue: { range: string; amount: number };
  founded: number;
  linkedinUrl: string;
}

export interface DirectoryPerson {
  id: string;
  firstName: string;
  lastName: string;
  fullName: string;
  emailAddresses: { email: string; emailType: 'work' | 'personal' }[];
  phoneNumbers: { number: string; phoneType: 'mobile' | 'direct' }[];
  jobTitle: string;
  company: DirectoryCompany;
  location: { city: string; state: string; country: string };
  profileUrl: string;
}

const PEOPLE_COUNT = FIRST_NAMES.length * LAST_NAMES.length;

/** A name as it appears in an email local part or a profile slug. */
function slugPart(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

function buildCompanies(): DirectoryCompany[] {
  return COMPANY_SEEDS.map((seed, index) => ({
    ...seed,
    id: `cmp_${String(index + 1).padStart(4, '0')}`,
    linkedinUrl: `https://www.linkedin.com/company/${seed.domain.split('.')[0]}`,
  }));
}

function buildPeople(companies: DirectoryCompany[]): DirectoryPerson[] {
  const people: DirectoryPerson[] = [];
  for (let index = 0; index < PEOPLE_COUNT; index += 1) {
    const firstName = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const lastName = LAST_NAMES[Math.floor(index / FIRST_NAMES.length)]!;
    const company = companies[index % companies.length]!;
    const local = `${slugPart(firstName)}.${slugPart(lastName)}`;
    const emailAddresses: DirectoryPerson['emailAddresses'] = [
      { email: `${local}@${company.domain}`, emailType: 'work' },
    ];
    if (index % 5 === 0) {
      emailAddresses.push({ email: `${local}${index % 97}@mail.example`, emailType: 'personal' });
    }
    // Two people in three have phone numbers; revealing them is what costs the second credit.
    const phoneNumbers: DirectoryPerson['phoneNumbers'] =
      index % 3 === 0
        ? []
        : [
            {
              number: `+1 555 ${String(100 + (index % 900)).padStart(3, '0')} ${String(index).padStart(4, '0')}`,
              phoneType: 'mobile',
            },
            ...(index % 6 === 1
              ? [{ number: `+1 555 010 ${String(index).padStart(4, '0')}`, phoneType: 'direct' as const }]
              : []),
          ];
    people.push({
      id: `per_${String(index + 1).padStart(5, '0')}`,
      firstName,
      lastName,
      fullName: `${firstName} ${lastName}`,
      emailAddresses,
      phoneNumbers,
      // Titles vary within each company, so every title appears at every company.
      jobTitle: JOB_TITLES[Math.floor(index / companies.length) % JOB_TITLES.length]!,
      company,
      location: company.location,
      profileUrl: `https://www.linkedin.com/in/${slugPart(firstName)}-${slugPart(lastName)}`,
    });
  }
  return people;
}

/** The slug of a profile URL (`.../in/<slug>/`), lower-cased, or undefined. */
function profileSlug(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const match = /\/in\/([^/]+)\/?$/.exec(parsed.pathname);
    return match?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `https://www.Acme.com/about` -> `acme.com`. */
export function normalizeDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .split(/[/?#]/, 1)[0]!;
}

/** Read-only lookups over the generated people and companies. */
export class ContactDataDirectory {
  readonly companies: readonly DirectoryCompany[];
  readonly people: readonly DirectoryPerson[];
  private readonly byEmail = new Map<string, DirectoryPerson>();
  private readonly bySlug = new Map<string, DirectoryPerson>();

  constructor() {
    this.companies = buildCompanies();
    this.people = buildPeople([...this.companies]);
    for (const person of this.people) {
      for (const address of person.emailAddresses) this.byEmail.set(address.email, person);
      this.bySlug.set(profileSlug(person.profileUrl)!, person);
    }
  }

  personByEmail(email: string): DirectoryPerson | undefined {
    return this.byEmail.get(email.trim().toLowerCase());
  }

  personByProfileUrl(url: string): DirectoryPerson | undefined {
    const slug = profileSlug(url.trim());
    return slug ? this.bySlug.get(slug) : undefined;
  }

  /** First and last name (any case) at a company named by its name or domain. */
  personByName(firstName: string, lastName: string, company: string): DirectoryPerson | undefined {
    const employer = this.companyByName(company) ?? this.companyByDomain(company);
    if (!employer) return undefined;
    const first = firstName.trim().toLowerCase();
    const last = lastName.trim().toLowerCase();
    return this.people.find(
      (person) =>
        person.company === employer &&
        person.firstName.toLowerCase() === first &&
        person.lastName.toLowerCase() === last,
    );
  }

  companyByDomain(domain: string): DirectoryCompany | undefined {
    const wanted = normalizeDomain(domain);
    return this.companies.find((company) => company.domain === wanted);
  }

  companyByName(name: string): DirectoryCompany | undefined {
    const wanted = name.trim().toLowerCase();
    return this.companies.find((company) => company.name.toLowerCase() === wanted);
  }
}

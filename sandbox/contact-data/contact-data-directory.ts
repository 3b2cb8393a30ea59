/**
 * The emulated provider's data: 12 companies and 2,000 people, generated
 * from fixed lists so every run (and every test) sees the same records.
 * Everything is fake; domains use the reserved `.example` suffix.
 */
import type { ContactDataSeed, DirectoryCompany, DirectoryPerson } from './contact-data-types.js';

/** A name as it appears in an email local part or a profile slug. */
function slugPart(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

function buildCompanies(seed: ContactDataSeed): DirectoryCompany[] {
  return seed.companies.map((company, index) => ({
    ...company,
    id: `cmp_${String(index + 1).padStart(4, '0')}`,
    linkedinUrl: `https://www.linkedin.com/company/${company.domain.split('.')[0]}`,
  }));
}

function buildPeople(seed: ContactDataSeed, companies: DirectoryCompany[]): DirectoryPerson[] {
  const { firstNames, lastNames, jobTitles } = seed;
  const people: DirectoryPerson[] = [];
  for (let index = 0; index < firstNames.length * lastNames.length; index += 1) {
    const firstName = firstNames[index % firstNames.length]!;
    const lastName = lastNames[Math.floor(index / firstNames.length)]!;
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
      jobTitle: jobTitles[Math.floor(index / companies.length) % jobTitles.length]!,
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

  /** `seed` is what the people and companies are generated from (contact-data-seed.ts for the sandbox). */
  constructor(seed: ContactDataSeed) {
    this.companies = buildCompanies(seed);
    this.people = buildPeople(seed, [...this.companies]);
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

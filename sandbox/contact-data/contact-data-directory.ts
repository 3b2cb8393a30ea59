/**
 * The emulated provider's data: 12 companies and 2,000 people, generated
 * from fixed lists so every run (and every test) sees the same records.
 * Everything is fake; domains use the reserved `.example` suffix.
 */

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

type CompanySeed = Omit<DirectoryCompany, 'id' | 'linkedinUrl'>;

const COMPANY_SEEDS: CompanySeed[] = [
  {
    name: 'Northwind Traders',
    domain: 'northwind.example',
    industry: 'Wholesale',
    companySize: '201-500',
    employees: 340,
    location: { city: 'Seattle', state: 'Washington', country: 'United States' },
    technologies: ['Salesforce', 'AWS', 'Shopify'],
    revenue: { range: '$50M-$100M', amount: 72_000_000 },
    founded: 1998,
  },
  {
    name: 'Contoso Analytics',
    domain: 'contoso.example',
    industry: 'Software',
    companySize: '51-200',
    employees: 120,
    location: { city: 'Austin', state: 'Texas', country: 'United States' },
    technologies: ['HubSpot', 'Google Cloud', 'Snowflake'],
    revenue: { range: '$10M-$50M', amount: 24_000_000 },
    founded: 2014,
  },
  {
    name: 'Fabrikam Robotics',
    domain: 'fabrikam.example',
    industry: 'Industrial Automation',
    companySize: '501-1000',
    employees: 760,
    location: { city: 'Munich', state: 'Bavaria', country: 'Germany' },
    technologies: ['SAP', 'Azure', 'Siemens MindSphere'],
    revenue: { range: '$100M-$250M', amount: 180_000_000 },
    founded: 1987,
  },
  {
    name: 'Tailspin Air',
    domain: 'tailspin.example',
    industry: 'Aviation',
    companySize: '1001-5000',
    employees: 2400,
    location: { city: 'Toronto', state: 'Ontario', country: 'Canada' },
    technologies: ['Oracle', 'Workday', 'AWS'],
    revenue: { range: '$500M-$1B', amount: 640_000_000 },
    founded: 1979,
  },
  {
    name: 'Wide World Importers',
    domain: 'wideworld.example',
    industry: 'Logistics',
    companySize: '201-500',
    employees: 280,
    location: { city: 'Rotterdam', state: 'South Holland', country: 'Netherlands' },
    technologies: ['Microsoft Dynamics', 'Azure'],
    revenue: { range: '$50M-$100M', amount: 58_000_000 },
    founded: 2003,
  },
  {
    name: 'Adatum Health',
    domain: 'adatum.example',
    industry: 'Healthcare',
    companySize: '1001-5000',
    employees: 1800,
    location: { city: 'Boston', state: 'Massachusetts', country: 'United States' },
    technologies: ['Epic', 'Salesforce', 'AWS'],
    revenue: { range: '$250M-$500M', amount: 310_000_000 },
    founded: 1995,
  },
  {
    name: 'Litware Labs',
    domain: 'litware.example',
    industry: 'Software',
    companySize: '11-50',
    employees: 38,
    location: { city: 'London', state: 'England', country: 'United Kingdom' },
    technologies: ['GitHub', 'Vercel', 'Stripe'],
    revenue: { range: '$1M-$10M', amount: 4_500_000 },
    founded: 2019,
  },
  {
    name: 'Proseware',
    domain: 'proseware.example',
    industry: 'Education',
    companySize: '51-200',
    employees: 95,
    location: { city: 'Dublin', state: 'Leinster', country: 'Ireland' },
    technologies: ['Moodle', 'Zendesk', 'Google Workspace'],
    revenue: { range: '$10M-$50M', amount: 12_000_000 },
    founded: 2010,
  },
  {
    name: 'Woodgrove Bank',
    domain: 'woodgrove.example',
    industry: 'Financial Services',
    companySize: '5001-10000',
    employees: 7200,
    location: { city: 'New York', state: 'New York', country: 'United States' },
    technologies: ['IBM z/OS', 'Salesforce', 'Azure'],
    revenue: { range: '$1B+', amount: 2_300_000_000 },
    founded: 1952,
  },
  {
    name: 'Alpine Ski House',
    domain: 'alpineskihouse.example',
    industry: 'Hospitality',
    companySize: '11-50',
    employees: 24,
    location: { city: 'Denver', state: 'Colorado', country: 'United States' },
    technologies: ['Shopify', 'Mailchimp'],
    revenue: { range: '$1M-$10M', amount: 3_100_000 },
    founded: 2008,
  },
  {
    name: 'Coho Vineyard',
    domain: 'cohovineyard.example',
    industry: 'Food & Beverage',
    companySize: '51-200',
    employees: 140,
    location: { city: 'Napa', state: 'California', country: 'United States' },
    technologies: ['WooCommerce', 'QuickBooks'],
    revenue: { range: '$10M-$50M', amount: 19_000_000 },
    founded: 1991,
  },
  {
    name: 'Lucerne Publishing',
    domain: 'lucernepublishing.example',
    industry: 'Media',
    companySize: '201-500',
    employees: 410,
    location: { city: 'Paris', state: 'Ile-de-France', country: 'France' },
    technologies: ['WordPress', 'Adobe Experience Manager', 'Google Cloud'],
    revenue: { range: '$50M-$100M', amount: 66_000_000 },
    founded: 1969,
  },
];

const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Daniel',
  'Emma',
  'Felix',
  'Grace',
  'Hugo',
  'Isla',
  'Jack',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Priya',
  'Quinn',
  'Ravi',
  'Sofia',
  'Tom',
  'Uma',
  'Victor',
  'Wen',
  'Xavier',
  'Yara',
  'Zane',
  'Amir',
  'Bianca',
  'Carlos',
  'Dana',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jade',
  'Kofi',
  'Lena',
  'Marco',
  'Nina',
];

const LAST_NAMES = [
  'Abbott',
  'Baker',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Novak',
  'Okafor',
  'Patel',
  'Quinlan',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Ueda',
  'Vargas',
  'Walsh',
  'Xu',
  'Yilmaz',
  'Zimmer',
  'Andersen',
  'Brennan',
  'Costa',
  'Diaz',
  'Eriksen',
  'Ferreira',
  'Gupta',
  'Hughes',
  'Iyer',
  'Jovanovic',
  'Kim',
  'Lopez',
  'Murphy',
  'Nguyen',
  "O'Neill",
  'Park',
  'Reyes',
  'Silva',
  'Torres',
  'Varga',
  'Weber',
  'Young',
  'Zhang',
  'Mendes',
];

const JOB_TITLES = [
  'Chief Executive Officer',
  'Chief Technology Officer',
  'VP of Sales',
  'VP of Marketing',
  'Head of Engineering',
  'Engineering Manager',
  'Senior Software Engineer',
  'Product Manager',
  'Sales Director',
  'Account Executive',
  'Marketing Manager',
  'Head of People',
  'Finance Director',
  'Data Scientist',
  'Customer Success Manager',
];

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

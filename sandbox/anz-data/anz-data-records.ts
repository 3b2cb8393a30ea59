/**
 * The sandbox's fake ANZ people and companies. Every name, domain and
 * number is made up: domains use the reserved `.example` suffix, Australian
 * mobiles come from the range ACMA reserves for fiction (0491 570 xxx to
 * 0491 579 xxx), and every ABN passes the modulus-89 check without
 * belonging to a listed business here.
 */

export interface LocationRecord {
  city: string;
  state: string | null;
  country: 'Australia' | 'New Zealand';
}

export interface CompanyRecord {
  id: string;
  slug: string;
  name: string;
  legal_name: string;
  abn: string | null;
  domain: string;
  industry: string;
  size_range: string;
  employee_count: number;
  headquarters: LocationRecord;
  technologies: string[];
  founded_year: number;
}

export interface PersonRecord {
  id: string;
  slug: string;
  first_name: string;
  last_name: string;
  company: string;
  title: string;
  seniority: string;
  department: string;
  location: LocationRecord;
  emails: { address: string; type: 'work' | 'personal'; status: 'verified' | 'unverified' }[];
  phones: { number: string; type: 'mobile' | 'direct' | 'office' }[];
}

const sydney: LocationRecord = { city: 'Sydney', state: 'NSW', country: 'Australia' };
const melbourne: LocationRecord = { city: 'Melbourne', state: 'VIC', country: 'Australia' };
const brisbane: LocationRecord = { city: 'Brisbane', state: 'QLD', country: 'Australia' };
const perth: LocationRecord = { city: 'Perth', state: 'WA', country: 'Australia' };
const adelaide: LocationRecord = { city: 'Adelaide', state: 'SA', country: 'Australia' };
const auckland: LocationRecord = { city: 'Auckland', state: 'Auckland', country: 'New Zealand' };
const wellington: LocationRecord = { city: 'Wellington', state: 'Wellington', country: 'New Zealand' };

export const COMPANY_RECORDS: readonly CompanyRecord[] = [
  {
    id: 'co_wattle',
    slug: 'wattle-analytics',
    name: 'Wattle Analytics',
    legal_name: 'Wattle Analytics Pty Ltd',
    abn: '18123456789',
    domain: 'wattle-analytics.example',
    industry: 'Software',
    size_range: '51-200',
    employee_count: 140,
    headquarters: sydney,
    technologies: ['AWS', 'Snowflake', 'dbt', 'HubSpot', 'React'],
    founded_year: 2014,
  },
  {
    id: 'co_southern_cross',
    slug: 'southern-cross-freight',
    name: 'Southern Cross Freight',
    legal_name: 'Southern Cross Freight Holdings Pty Ltd',
    abn: '80987654321',
    domain: 'southerncrossfreight.example',
    industry: 'Logistics',
    size_range: '201-500',
    employee_count: 320,
    headquarters: melbourne,
    technologies: ['SAP', 'Microsoft Dynamics', 'Azure'],
    founded_year: 1998,
  },
  {
    id: 'co_banksia',
    slug: 'banksia-health',
    name: 'Banksia Health Group',
    legal_name: 'Banksia Health Group Limited',
    abn: '78246813579',
    domain: 'banksiahealth.example',
    industry: 'Hospitals and Health Care',
    size_range: '1001-5000',
    employee_count: 2300,
    headquarters: brisbane,
    technologies: ['Epic', 'Salesforce', 'Microsoft 365'],
    founded_year: 1986,
  },
  {
    id: 'co_harbourside',
    slug: 'harbourside-legal',
    name: 'Harbourside Legal',
    legal_name: 'Harbourside Legal Pty Ltd',
    abn: '54112358132',
    domain: 'harbourside-legal.example',
    industry: 'Legal Services',
    size_range: '11-50',
    employee_count: 38,
    headquarters: perth,
    technologies: ['Microsoft 365', 'Xero'],
    founded_year: 2009,
  },
  {
    id: 'co_coral_coast',
    slug: 'coral-coast-energy',
    name: 'Coral Coast Energy',
    legal_name: 'Coral Coast Energy Limited',
    abn: '94314159265',
    domain: 'coralcoastenergy.example',
    industry: 'Renewable Energy',
    size_range: '501-1000',
    employee_count: 610,
    headquarters: adelaide,
    technologies: ['AWS', 'Python', 'Grafana', 'Salesforce'],
    founded_year: 2011,
  },
  {
    id: 'co_tasman',
    slug: 'tasman-fintech',
    name: 'Tasman Fintech',
    legal_name: 'Tasman Fintech Pty Ltd',
    abn: '20271828182',
    domain: 'tasmanfintech.example',
    industry: 'Financial Services',
    size_range: '51-200',
    employee_count: 95,
    headquarters: sydney,
    technologies: ['Google Cloud', 'Kubernetes', 'Go', 'Stripe'],
    founded_year: 2017,
  },
  {
    id: 'co_kiwi_orchard',
    slug: 'kiwi-orchard',
    name: 'Kiwi Orchard Co',
    legal_name: 'Kiwi Orchard Company Limited',
    abn: null,
    domain: 'kiwiorchard.example',
    industry: 'Food Production',
    size_range: '201-500',
    employee_count: 260,
    headquarters: auckland,
    technologies: ['Xero', 'Shopify'],
    founded_year: 2002,
  },
  {
    id: 'co_kauri',
    slug: 'kauri-software',
    name: 'Kauri Software',
    legal_name: 'Kauri Software Limited',
    abn: null,
    domain: 'kaurisoftware.example',
    industry: 'Software',
    size_range: '11-50',
    employee_count: 42,
    headquarters: wellington,
    technologies: ['Azure', 'TypeScript', 'Intercom'],
    founded_year: 2019,
  },
];

/**
 * One person a row: profile slug (first-last), company id, title,
 * seniority, department, location, their work email's status (null: none
 * on file), phones. A work email is first.last at the company's domain.
 */
type PersonRow = [
  slug: string,
  company: string,
  title: string,
  seniority: string,
  department: string,
  location: LocationRecord,
  workEmail: 'verified' | 'unverified' | null,
  phones: PersonRecord['phones'],
];

const mobile = (number: string) => ({ number, type: 'mobile' as const });
const office = (number: string) => ({ number, type: 'office' as const });

// biome-ignore format: a row a person, its columns aligned, reads as the table it is.
const PERSON_ROWS: PersonRow[] = [
  ['olivia-nguyen',   'co_wattle',         'Chief Executive Officer',  'c_suite',  'executive',        sydney,     'verified',   [mobile('+61491570156')]],
  ['liam-murphy',     'co_wattle',         'Engineering Manager',      'manager',  'engineering',      sydney,     'verified',   [mobile('+61491570157')]],
  ['priya-sharma',    'co_wattle',         'Senior Software Engineer', 'senior',   'engineering',      melbourne,  'unverified', []],
  ['jack-wilson',     'co_wattle',         'Head of Sales',            'head',     'sales',            sydney,     'verified',   [mobile('+61491570158'), office('+61255501234')]],
  ['mia-thompson',    'co_wattle',         'Marketing Manager',        'manager',  'marketing',        sydney,     null,         []],
  ['noah-williams',   'co_southern_cross', 'Director of Operations',   'director', 'operations',       melbourne,  'verified',   [mobile('+61491570159')]],
  ['charlotte-brown', 'co_southern_cross', 'Chief Financial Officer',  'c_suite',  'finance',          melbourne,  'verified',   []],
  ['william-lee',     'co_southern_cross', 'IT Manager',               'manager',  'it',               melbourne,  null,         []],
  ['amelia-chen',     'co_banksia',        'VP Engineering',           'vp',       'engineering',      brisbane,   'verified',   [mobile('+61491570110')]],
  ['oliver-smith',    'co_banksia',        'Engineering Manager',      'manager',  'engineering',      brisbane,   'verified',   []],
  ['isla-jones',      'co_harbourside',    'Managing Partner',         'c_suite',  'legal',            perth,      'verified',   [mobile('+61491570313')]],
  ['ethan-taylor',    'co_coral_coast',    'Director of Engineering',  'director', 'engineering',      adelaide,   'verified',   [mobile('+61491570737')]],
  ['grace-martin',    'co_coral_coast',    'Sales Director',           'director', 'sales',            adelaide,   null,         []],
  ['lucas-white',     'co_tasman',         'Chief Technology Officer', 'c_suite',  'engineering',      sydney,     'verified',   [mobile('+61491571266')]],
  ['ava-harris',      'co_tasman',         'Product Manager',          'manager',  'product',          sydney,     'verified',   []],
  ['aroha-ngata',     'co_kiwi_orchard',   'General Manager',          'c_suite',  'executive',        auckland,   'verified',   []],
  ['tane-walker',     'co_kauri',          'Engineering Manager',      'manager',  'engineering',      wellington, 'verified',   []],
  ['sophie-clark',    'co_kauri',          'Customer Success Lead',    'senior',   'customer_success', wellington, null,         []],
];

function person(row: PersonRow): PersonRecord {
  const [slug, company, title, seniority, department, location, workEmail, phones] = row;
  const [first = '', ...rest] = slug.split('-');
  const cap = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const domain = COMPANY_RECORDS.find((record) => record.id === company)?.domain;
  if (!domain) throw new Error(`Seed person ${slug} works at ${company}, which is not a seed company.`);
  return {
    id: `per_${slug.replace(/-/g, '_')}`,
    slug,
    first_name: cap(first),
    last_name: rest.map(cap).join(' '),
    company,
    title,
    seniority,
    department,
    location,
    emails: workEmail
      ? [{ address: `${slug.replace(/-/g, '.')}@${domain}`, type: 'work', status: workEmail }]
      : [],
    phones,
  };
}

export const PERSON_RECORDS: readonly PersonRecord[] = PERSON_ROWS.map(person);

/** The provider's filter vocabulary; anything else is a 400, as a real API refuses an unknown enum. */
export const SENIORITIES = ['c_suite', 'vp', 'head', 'director', 'manager', 'senior', 'entry'] as const;
export const DEPARTMENTS = [
  'executive',
  'engineering',
  'it',
  'product',
  'design',
  'sales',
  'marketing',
  'finance',
  'operations',
  'human_resources',
  'legal',
  'customer_success',
] as const;

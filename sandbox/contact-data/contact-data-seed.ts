/**
 * The seed lists the contact-data directory is generated from: 12 companies,
 * and first names, last names and job titles whose product gives 2,000
 * people. Everything is fake; domains use the reserved `.example` suffix.
 */
import type { CompanySeed, ContactDataSeed } from './contact-data-types.js';

/**
 * One company a row: name, domain, industry, the provider's size band,
 * employees, headquarters, technologies, the revenue band, revenue in USD,
 * founding year.
 */
type CompanyRow = [
  name: string,
  domain: string,
  industry: string,
  companySize: string,
  employees: number,
  location: [city: string, state: string, country: string],
  technologies: string[],
  revenueRange: string,
  revenue: number,
  founded: number,
];

// biome-ignore format: a row a company, its columns aligned, reads as the table it is.
const COMPANY_ROWS: CompanyRow[] = [
  ['Northwind Traders',    'northwind.example',         'Wholesale',             '201-500',    340,  ['Seattle', 'Washington', 'United States'],    ['Salesforce', 'AWS', 'Shopify'],                          '$50M-$100M',  72_000_000,    1998],
  ['Contoso Analytics',    'contoso.example',           'Software',              '51-200',     120,  ['Austin', 'Texas', 'United States'],          ['HubSpot', 'Google Cloud', 'Snowflake'],                  '$10M-$50M',   24_000_000,    2014],
  ['Fabrikam Robotics',    'fabrikam.example',          'Industrial Automation', '501-1000',   760,  ['Munich', 'Bavaria', 'Germany'],              ['SAP', 'Azure', 'Siemens MindSphere'],                    '$100M-$250M', 180_000_000,   1987],
  ['Tailspin Air',         'tailspin.example',          'Aviation',              '1001-5000',  2400, ['Toronto', 'Ontario', 'Canada'],              ['Oracle', 'Workday', 'AWS'],                              '$500M-$1B',   640_000_000,   1979],
  ['Wide World Importers', 'wideworld.example',         'Logistics',             '201-500',    280,  ['Rotterdam', 'South Holland', 'Netherlands'], ['Microsoft Dynamics', 'Azure'],                           '$50M-$100M',  58_000_000,    2003],
  ['Adatum Health',        'adatum.example',            'Healthcare',            '1001-5000',  1800, ['Boston', 'Massachusetts', 'United States'],  ['Epic', 'Salesforce', 'AWS'],                             '$250M-$500M', 310_000_000,   1995],
  ['Litware Labs',         'litware.example',           'Software',              '11-50',      38,   ['London', 'England', 'United Kingdom'],       ['GitHub', 'Vercel', 'Stripe'],                            '$1M-$10M',    4_500_000,     2019],
  ['Proseware',            'proseware.example',         'Education',             '51-200',     95,   ['Dublin', 'Leinster', 'Ireland'],             ['Moodle', 'Zendesk', 'Google Workspace'],                 '$10M-$50M',   12_000_000,    2010],
  ['Woodgrove Bank',       'woodgrove.example',         'Financial Services',    '5001-10000', 7200, ['New York', 'New York', 'United States'],     ['IBM z/OS', 'Salesforce', 'Azure'],                       '$1B+',        2_300_000_000, 1952],
  ['Alpine Ski House',     'alpineskihouse.example',    'Hospitality',           '11-50',      24,   ['Denver', 'Colorado', 'United States'],       ['Shopify', 'Mailchimp'],                                  '$1M-$10M',    3_100_000,     2008],
  ['Coho Vineyard',        'cohovineyard.example',      'Food & Beverage',       '51-200',     140,  ['Napa', 'California', 'United States'],       ['WooCommerce', 'QuickBooks'],                             '$10M-$50M',   19_000_000,    1991],
  ['Lucerne Publishing',   'lucernepublishing.example', 'Media',                 '201-500',    410,  ['Paris', 'Ile-de-France', 'France'],          ['WordPress', 'Adobe Experience Manager', 'Google Cloud'], '$50M-$100M',  66_000_000,    1969],
];

function companySeed(row: CompanyRow): CompanySeed {
  const [name, domain, industry, companySize, employees, place, technologies, range, amount, founded] = row;
  const [city, state, country] = place;
  return {
    name,
    domain,
    industry,
    companySize,
    employees,
    location: { city, state, country },
    technologies,
    revenue: { range, amount },
    founded,
  };
}

const COMPANY_SEEDS: CompanySeed[] = COMPANY_ROWS.map(companySeed);

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

/** What the sandbox's directory is generated from. */
export const CONTACT_DATA_SEED: ContactDataSeed = {
  companies: COMPANY_SEEDS,
  firstNames: FIRST_NAMES,
  lastNames: LAST_NAMES,
  jobTitles: JOB_TITLES,
};

/**
 * The records of the emulated contact-data directory and the seed it is
 * generated from. Both the seed lists and the directory import these, so the
 * seed depends on the shapes and the directory never on the seed's file.
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

/** A company as seeded: the directory gives it its id and profile URL. */
export type CompanySeed = Omit<DirectoryCompany, 'id' | 'linkedinUrl'>;

/** What the directory is generated from: the companies, and names and titles whose product gives the people. */
export interface ContactDataSeed {
  companies: readonly CompanySeed[];
  firstNames: readonly string[];
  lastNames: readonly string[];
  jobTitles: readonly string[];
}

import { json, type Reply } from '../sandbox-http.js';
import type { DirectoryCompany, DirectoryPerson } from './contact-data-types.js';

/** What one person or company lookup yields: the record, or an error inside a 200, and its charge. */
export type RecordResult = {
  data: Record<string, unknown> | null;
  error?: { code: string; message: string };
  creditsCharged: number;
};

/** The provider's error body: `{statusCode, message, errors[]}`. */
export function failure(
  status: number,
  message: string,
  errors: { field: string; message: string }[] = [],
): Reply {
  return json(status, { statusCode: status, message, errors });
}

export const NOT_FOUND_PERSON = { code: 'not_found', message: 'Contact not found' };
export const NOT_FOUND_COMPANY = { code: 'not_found', message: 'Company not found' };
export const NO_CREDITS = {
  code: 'insufficient_credits',
  message: 'Not enough credits left to reveal this record',
};

/** A non-blank string member, or undefined. */
export function str(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function companyWire(company: DirectoryCompany) {
  return { ...company, technologies: [...company.technologies], revenue: { ...company.revenue } };
}

export function personWire(person: DirectoryPerson) {
  return {
    id: person.id,
    firstName: person.firstName,
    lastName: person.lastName,
    fullName: person.fullName,
    emailAddresses: person.emailAddresses.map((address) => ({ ...address })),
    phoneNumbers: person.phoneNumbers.map((phone) => ({ ...phone })),
    jobTitle: person.jobTitle,
    company: { id: person.company.id, name: person.company.name, domain: person.company.domain },
    location: { ...person.location },
    profileUrl: person.profileUrl,
  };
}

export function personPreview(person: DirectoryPerson) {
  const { emailAddresses: _emails, phoneNumbers: _phones, ...preview } = personWire(person);
  return preview;
}

/** Case-insensitive substring filter; an absent filter matches everything. */
export function contains(haystack: string, needle: string | undefined): boolean {
  return needle === undefined || haystack.toLowerCase().includes(needle.trim().toLowerCase());
}

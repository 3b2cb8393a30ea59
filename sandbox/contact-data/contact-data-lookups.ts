import type { ContactDataDirectory } from './contact-data-directory.js';
import {
  companyWire,
  NO_CREDITS,
  NOT_FOUND_COMPANY,
  NOT_FOUND_PERSON,
  personWire,
  type RecordResult,
  str,
} from './contact-data-wire.js';

export type ContactDataPlan = 'basic' | 'pro';

/** One API key's account: its balance, what it spent, and its plan. */
export interface ContactDataAccount {
  balance: number;
  spent: number;
  plan: ContactDataPlan;
}

/** A matched person costs 1 credit, 2 when phone numbers are revealed too. */
export function personCharge(person: { phoneNumbers: readonly unknown[] }): number {
  return person.phoneNumbers.length > 0 ? 2 : 1;
}

export function charge(account: ContactDataAccount, credits: number): void {
  account.balance -= credits;
  account.spent += credits;
}

/** Answers one lookup from the request body that names the record. */
export type Lookup = (account: ContactDataAccount, body: Record<string, unknown>) => RecordResult;

/**
 * The one flow of every lookup: no record is a free not-found; a record
 * costs its charge, and is refused (free) when the balance does not cover it.
 */
function recordLookup<T>(
  find: (body: Record<string, unknown>) => T | undefined,
  notFound: NonNullable<RecordResult['error']>,
  cost: (record: T) => number,
  wire: (record: T) => RecordResult['data'],
): Lookup {
  return (account, body) => {
    const record = find(body);
    if (!record) return { data: null, error: notFound, creditsCharged: 0 };
    const credits = cost(record);
    if (account.balance < credits) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
    charge(account, credits);
    return { data: wire(record), creditsCharged: credits };
  };
}

/** Finds one person by email, profile URL, or name at a company. */
export function personLookup(directory: ContactDataDirectory): Lookup {
  return recordLookup(
    (body) => {
      const email = str(body, 'email');
      const profileUrl = str(body, 'profileUrl');
      if (email) return directory.personByEmail(email);
      if (profileUrl) return directory.personByProfileUrl(profileUrl);
      return directory.personByName(str(body, 'firstName')!, str(body, 'lastName')!, str(body, 'company')!);
    },
    NOT_FOUND_PERSON,
    personCharge,
    personWire,
  );
}

/** Finds one company by domain or name; a match costs 1 credit. */
export function companyLookup(directory: ContactDataDirectory): Lookup {
  return recordLookup(
    (body) => {
      const domain = str(body, 'domain');
      return domain ? directory.companyByDomain(domain) : directory.companyByName(str(body, 'name')!);
    },
    NOT_FOUND_COMPANY,
    () => 1,
    companyWire,
  );
}

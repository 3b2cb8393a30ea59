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

/** Finds one person by email, profile URL, or name at a company; charges when found and affordable. */
export function lookupPerson(
  directory: ContactDataDirectory,
  account: ContactDataAccount,
  body: Record<string, unknown>,
): RecordResult {
  const email = str(body, 'email');
  const profileUrl = str(body, 'profileUrl');
  const [firstName, lastName, company] = [
    str(body, 'firstName'),
    str(body, 'lastName'),
    str(body, 'company'),
  ];
  const person = email
    ? directory.personByEmail(email)
    : profileUrl
      ? directory.personByProfileUrl(profileUrl)
      : directory.personByName(firstName!, lastName!, company!);
  if (!person) return { data: null, error: NOT_FOUND_PERSON, creditsCharged: 0 };
  const cost = personCharge(person);
  if (account.balance < cost) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
  charge(account, cost);
  return { data: personWire(person), creditsCharged: cost };
}

/** Finds one company by domain or name; charges 1 credit when found and affordable. */
export function lookupCompany(
  directory: ContactDataDirectory,
  account: ContactDataAccount,
  body: Record<string, unknown>,
): RecordResult {
  const domain = str(body, 'domain');
  const name = str(body, 'name');
  const company = domain ? directory.companyByDomain(domain) : directory.companyByName(name!);
  if (!company) return { data: null, error: NOT_FOUND_COMPANY, creditsCharged: 0 };
  if (account.balance < 1) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
  charge(account, 1);
  return { data: companyWire(company), creditsCharged: 1 };
}

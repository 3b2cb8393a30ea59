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

/** A found record's answer: it costs `cost` credits, and is refused (free) when the balance does not cover them. */
function chargedAnswer(
  account: ContactDataAccount,
  cost: number,
  wire: () => RecordResult['data'],
): RecordResult {
  if (account.balance < cost) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
  charge(account, cost);
  return { data: wire(), creditsCharged: cost };
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
  return chargedAnswer(account, personCharge(person), () => personWire(person));
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
  return chargedAnswer(account, 1, () => companyWire(company));
}

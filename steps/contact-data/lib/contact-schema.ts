import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { WireId, WireLocation } from './wire.js';

/** Where a person or company is, as the provider knows it. */
export const Location = builtOnce(() =>
  z
    .object({
      city: z.string().nullable().describe('City.'),
      state: z.string().nullable().describe('State, region or province.'),
      country: z.string().nullable().describe('Country name.'),
    })
    .describe('Location; null parts are unknown to the provider.'),
);

export function locationFromWire(location: z.output<ReturnType<typeof WireLocation>> | null | undefined) {
  if (!location) return null;
  return { city: location.city ?? null, state: location.state ?? null, country: location.country ?? null };
}

const NAME_FIELDS = ['first_name', 'last_name', 'company'] as const;

/**
 * How to identify one person: exactly one of email, profile URL, or first
 * name + last name + company. Field names are ours (snake_case); the
 * provider's own casing (`profileUrl`, `firstName`) is used only on the wire.
 */
export const PersonLookup = builtOnce(() =>
  z
    .strictObject({
      email: z.email().max(320).optional().describe('Work or personal email address of the person.'),
      profile_url: z
        .url({ protocol: /^https?$/ })
        .max(500)
        .optional()
        .describe('Public profile URL of the person, e.g. https://www.linkedin.com/in/jane-doe.'),
      first_name: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('First name; with last_name and company.'),
      last_name: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('Last name; with first_name and company.'),
      company: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('Company name or domain of the person; with first_name and last_name.'),
    })
    .superRefine((value, context) => {
      const byName = NAME_FIELDS.some((field) => value[field] !== undefined);
      const ways = [value.email !== undefined, value.profile_url !== undefined, byName].filter(
        Boolean,
      ).length;
      if (ways !== 1) {
        context.addIssue({
          code: 'custom',
          message:
            ways === 0
              ? 'give one way to identify the person: email, profile_url, or first_name + last_name + company'
              : 'give exactly one way to identify the person: email, or profile_url, or first_name + last_name + company, not several',
        });
        return;
      }
      if (byName) {
        for (const field of NAME_FIELDS) {
          if (value[field] === undefined) {
            context.addIssue({
              code: 'custom',
              path: [field],
              message: 'first_name, last_name and company are needed together',
            });
          }
        }
      }
    })
    .describe('One person: exactly one of email, profile_url, or first_name + last_name + company.'),
);
export type PersonLookup = z.output<ReturnType<typeof PersonLookup>>;

/** The provider's body for one person, in its own casing. */
export function personLookupToWire(lookup: PersonLookup): Record<string, string> {
  if (lookup.email !== undefined) return { email: lookup.email };
  if (lookup.profile_url !== undefined) return { profileUrl: lookup.profile_url };
  return { firstName: lookup.first_name!, lastName: lookup.last_name!, company: lookup.company! };
}

const EMAIL_TYPES = ['work', 'personal', 'unknown'] as const;
const PHONE_TYPES = ['mobile', 'direct', 'office', 'unknown'] as const;

function oneOf<T extends string>(allowed: readonly T[], value: string | null | undefined): T {
  const lower = value?.toLowerCase();
  return (allowed as readonly string[]).includes(lower ?? '') ? (lower as T) : ('unknown' as T);
}

const EmployerRef = builtOnce(() =>
  z
    .object({
      name: z.string().nullable().describe('Company name.'),
      domain: z.string().nullable().describe('Company web domain.'),
    })
    .describe('The company the person works for.'),
);

const contactFields = builtOnce(() => ({
  id: z.string().describe('The provider id of the person.'),
  full_name: z.string().nullable().describe('Full name.'),
  first_name: z.string().nullable().describe('First name.'),
  last_name: z.string().nullable().describe('Last name.'),
  job_title: z.string().nullable().describe('Current job title.'),
  company: EmployerRef().nullable(),
  location: Location().nullable(),
  profile_url: z.string().nullable().describe('Public profile URL.'),
}));

/** A found person with contact details. */
export const Contact = builtOnce(() =>
  z
    .object({
      ...contactFields(),
      emails: z
        .array(
          z.object({
            address: z.string().describe('Email address.'),
            type: z.enum(EMAIL_TYPES).describe('work, personal, or unknown.'),
          }),
        )
        .describe('Email addresses, work first as the provider ranks them.'),
      phones: z
        .array(
          z.object({
            number: z.string().describe('Phone number as the provider formats it.'),
            type: z.enum(PHONE_TYPES).describe('mobile, direct, office, or unknown.'),
          }),
        )
        .describe('Phone numbers; revealing them is what makes a lookup cost 2 credits instead of 1.'),
    })
    .describe('A person with contact details.'),
);
export type Contact = z.output<ReturnType<typeof Contact>>;

/** A person as search lists them: no emails or phones (enrich to get those). */
export const ContactPreview = builtOnce(() =>
  z.object(contactFields()).describe('A person found by search, without contact details.'),
);

export const WirePerson = builtOnce(() =>
  z
    .object({
      id: WireId(),
      firstName: z.string().nullish(),
      lastName: z.string().nullish(),
      fullName: z.string().nullish(),
      emailAddresses: z
        .array(z.object({ email: z.string(), emailType: z.string().nullish() }).loose())
        .nullish(),
      phoneNumbers: z
        .array(z.object({ number: z.string(), phoneType: z.string().nullish() }).loose())
        .nullish(),
      jobTitle: z.string().nullish(),
      company: z.object({ name: z.string().nullish(), domain: z.string().nullish() }).loose().nullish(),
      location: WireLocation().nullish(),
      profileUrl: z.string().nullish(),
    })
    .loose(),
);
type WirePerson = z.output<ReturnType<typeof WirePerson>>;

function previewFromWire(person: WirePerson) {
  const fullName = person.fullName ?? ([person.firstName, person.lastName].filter(Boolean).join(' ') || null);
  return {
    id: person.id,
    full_name: fullName,
    first_name: person.firstName ?? null,
    last_name: person.lastName ?? null,
    job_title: person.jobTitle ?? null,
    company: person.company
      ? { name: person.company.name ?? null, domain: person.company.domain ?? null }
      : null,
    location: locationFromWire(person.location),
    profile_url: person.profileUrl ?? null,
  };
}

export function contactPreviewFromWire(person: WirePerson): z.output<ReturnType<typeof ContactPreview>> {
  return previewFromWire(person);
}

export function contactFromWire(person: WirePerson): Contact {
  return {
    ...previewFromWire(person),
    emails: (person.emailAddresses ?? []).map((address) => ({
      address: address.email,
      type: oneOf(EMAIL_TYPES, address.emailType),
    })),
    phones: (person.phoneNumbers ?? []).map((phone) => ({
      number: phone.number,
      type: oneOf(PHONE_TYPES, phone.phoneType),
    })),
  };
}

/** A person lookup as the find and enrich steps send it and read it back: request, answer, and the mapping between them. */
export const personLookup = builtOnce(() => ({
  lookup: PersonLookup(),
  toWire: personLookupToWire,
  wire: WirePerson(),
  item: Contact(),
  fromWire: contactFromWire,
}));

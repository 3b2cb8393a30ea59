import * as z from 'zod';

const path = z
  .string()
  .regex(/^\/[A-Za-z0-9/_.-]{1,200}$/, 'a path such as /person/search')
  .refine((value) => !value.split('/').includes('..'), 'no .. segments');

/**
 * What the spec and the provider facts leave open about the contact-data
 * provider and this emulator invents; each is a setting
 * (`assume: { contact_data: {...} }`, `--assume contact_data.<name>=<value>`).
 * The steps keep their own paths in one table (`contactDataPaths`): point
 * both at the paths of your account.
 */
export const ContactDataAssumptions = z
  .object({
    // integrations.md, C paths: "Paths of the search endpoints ... not shown".
    person_search_path: path.default('/person/search').describe('Where people are searched (POST).'),
    company_search_path: path.default('/company/search').describe('Where companies are searched (POST).'),
    // Neither the spec nor the provider facts show how a key's balance is read.
    usage_path: path.default('/account/usage').describe("Where a key's credits and quotas are read (GET)."),
  })
  .strict();
export type ContactDataAssumptions = z.output<typeof ContactDataAssumptions>;

import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/** The writable fields of an organization, shared by Create Organization and Update Organization. */
export const OrganizationFields = builtOnce(
  () =>
    ({
      domain_names: z
        .array(
          z
            .string()
            .min(1)
            .max(253)
            .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain such as acme.example'),
        )
        .max(100)
        .describe('Email domains whose new users join it; replaces the set.'),
      details: z.string().max(5000).describe('Details such as an address.'),
      notes: z.string().max(5000).describe('Notes agents see about the organization.'),
      external_id: z.string().min(1).max(255).describe('Your own id for the organization; unique.'),
      group_id: z.number().int().positive().describe('Group new tickets of its users go to.'),
      tags: z
        .array(z.string().min(1).max(80).regex(/^\S+$/, 'tags cannot contain spaces'))
        .max(100)
        .describe('Tags (single words); replace the set.'),
    }) as const,
);

import * as z from 'zod';
import { defineStep, readAnswer } from '../../src/kit/index.js';
import { anzData } from './integration.js';
import { Department, PersonSummary, Seniority } from './lib/anz-schema.js';
import {
  CREDITS_PER_SEARCH_RESULT,
  creditBasis,
  creditsChargedDescription,
  reportCharge,
} from './lib/credits.js';
import {
  COMPANY_SIZES,
  companySizeOptions,
  departmentOptions,
  locationOptions,
  seniorityOptions,
} from './lib/filter-options.js';
import { anzDataApi, anzRequest, SEARCH_LIMIT_MAX } from './lib/operations.js';
import { SearchAnswer, toPersonSummary } from './lib/provider-records.js';

const CRITERIA = ['company', 'position', 'seniority', 'department', 'location', 'company_size'] as const;
const { method, path } = anzDataApi.searchPeople;

const criterion = (description: string) => z.string().trim().min(1).max(200).optional().describe(description);

export default defineStep({
  id: 'anz_data.search_people',
  // The id before steps were named verb_noun; saved workflows that use it keep working.
  aliases: ['anz_data.people_search'],
  integration: anzData,
  title: 'People Search',
  description:
    'Find people at Australian and New Zealand companies by company, position, seniority, department, location and company size; filters combine.',
  agentDescription:
    'Searches people by any combination of company, position, seniority, department, location and company size (at least one). Returns profiles without contact details: enrich a profile_url with People Enrichment to get emails and phones. Costs 1 credit per person returned, so limit is the worst case (default 10, max 100); no results cost nothing. Keep limit small when you need only a few people.',
  keywords: [
    'search people',
    'find people',
    'prospects',
    'leads',
    'job title',
    'decision makers',
    'who works at',
  ],
  options: {
    seniority: seniorityOptions,
    department: departmentOptions,
    location: locationOptions,
    company_size: companySizeOptions,
  },
  get input() {
    return z
      .strictObject({
        company: criterion('Company name or domain, e.g. "Wattle Analytics" or wattle-analytics.example.'),
        position: criterion('Words of the job title, e.g. "engineering manager".'),
        seniority: Seniority().optional(),
        department: Department().optional(),
        location: criterion(
          'City, state or territory, or country, e.g. "Sydney", "NSW" or "New Zealand"; part of the value matches.',
        ),
        company_size: z
          .enum(COMPANY_SIZES)
          .optional()
          .describe("The size band of the person's company, in employees."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(SEARCH_LIMIT_MAX)
          .default(10)
          .describe('Most people to return, 1 to 100; each person returned costs 1 credit.'),
      })
      .superRefine((value, context) => {
        if (CRITERIA.some((name) => value[name] !== undefined)) return;
        context.addIssue({
          code: 'custom',
          path: [],
          message: `give at least one of ${CRITERIA.join(', ')}`,
        });
      })
      .meta({
        description: `At least one of ${CRITERIA.join(', ')}; they combine (AND).`,
        anyOf: CRITERIA.map((name) => ({ required: [name] })),
      });
  },
  get output() {
    return z.object({
      matched: z.boolean().describe('False when nobody matches; then people is empty.'),
      people: z.array(PersonSummary()).describe('Matching people, up to limit, without contact details.'),
      total: z.number().int().nullable().describe('How many people match in all, when the provider says.'),
      returned: z
        .number()
        .int()
        .describe('How many people this result holds (and credits charged for them).'),
      truncated: z.boolean().describe('True when more people match than were returned.'),
      credits_charged: z.number().nullable().describe(creditsChargedDescription),
    });
  },
  access: 'read',
  idempotent: false,
  credits: {
    basis: creditBasis.search,
    estimate: (input) => ({ min: 0, max: input.limit * CREDITS_PER_SEARCH_RESULT }),
  },
  variables: {
    matched: '$.matched',
    names: '$.people[*].full_name',
    profile_urls: '$.people[*].profile_url',
    total: '$.total',
  },
  examples: [
    {
      title: 'Executives of one company',
      input: { company: 'Wattle Analytics', seniority: 'c_suite', limit: 5 },
    },
  ],
  async run(input, context) {
    const response = await context.http.request(
      anzRequest('searchPeople', {
        company: input.company,
        position: input.position,
        seniority: input.seniority,
        department: input.department,
        location: input.location,
        company_size: input.company_size,
        limit: input.limit,
      }),
    );
    const charged = reportCharge(response, context);
    const answer = readAnswer(SearchAnswer(), response.body, `${method} ${path}`);
    const people = (answer?.results ?? []).slice(0, input.limit).map(toPersonSummary);
    const total = answer?.total ?? null;
    return {
      matched: people.length > 0,
      people,
      total,
      returned: people.length,
      truncated: total !== null && total > people.length,
      credits_charged: charged,
    };
  },
});

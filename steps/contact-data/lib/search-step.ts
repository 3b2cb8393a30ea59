import * as z from 'zod';
import type { OptionsSource, ReturnedValue, StepDefinition, StepExample } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { contactData } from '../integration.js';
import { countryOptions, industryOptions } from './filter-options.js';
import {
  requireAFilter,
  searchCredits,
  searchFilters,
  searchLimit,
  searchSummaryFields,
  wireFilterNames,
} from './search-filters.js';
import { searchPage } from './search-page.js';

type FilterName = keyof ReturnType<typeof searchFilters>;
type GivenFilters<Filter extends FilterName> = { [Name in Filter]?: string | undefined };

/** A search step's input: the filters it offers, at least one of them given, and a limit. */
function searchInput<const Filter extends FilterName>(filters: readonly Filter[]) {
  const offered = Object.fromEntries(filters.map((name) => [name, searchFilters()[name]]));
  const input = z
    .strictObject({ ...offered, limit: searchLimit() })
    .superRefine(requireAFilter(filters))
    .describe('Filters, at least one, and a limit.');
  // zod cannot work out an object's type over a type parameter (which filters), so it is said here.
  return input as unknown as z.ZodType<
    GivenFilters<Filter> & { limit: number },
    GivenFilters<Filter> & { limit?: number | undefined }
  >;
}

/** The filters a search offers that have a closed list of values at the provider. */
function filterOptions(filters: readonly FilterName[]): Record<string, OptionsSource> {
  const lists: Partial<Record<FilterName, OptionsSource>> = {
    industry: industryOptions,
    location: countryOptions,
  };
  return Object.fromEntries(filters.flatMap((name) => (lists[name] ? [[name, lists[name]]] : [])));
}

/**
 * The definition of a contact_data search step (`POST /person/search`,
 * `/company/search`), for `defineStep`: both are paid reads that send the
 * chosen filters and a limit and answer with the items under `list` and the
 * search summary; a step names only its words, its filters, where it
 * searches and how an item reads.
 */
export function searchStep<
  const Id extends `contact_data.${string}`,
  const Filter extends FilterName,
  List extends string,
  Item extends z.ZodType,
  Wire extends z.ZodType,
>(spec: {
  id: Id;
  title: string;
  description: string;
  agentDescription: string;
  keywords: readonly string[];
  filters: readonly Filter[];
  list: List;
  /** The item's schema, built on first read of the step's output. */
  item: () => Item;
  itemsDescription: string;
  variables: Readonly<Record<string, string>>;
  examples: readonly StepExample<z.input<ReturnType<typeof searchInput<Filter>>>>[];
  path: string;
  /** The provider's item, built on the first call. */
  wireItem: () => Wire;
  fromWire: (wire: z.output<Wire>) => z.input<Item>;
}) {
  // Built on first read (the step's getters below), not when the catalogue is imported.
  const input = builtOnce(() => searchInput(spec.filters));
  const output = builtOnce(() => {
    // A computed key is typed as any string; the cast names the one field it is.
    const items = { [spec.list]: z.array(spec.item()).describe(spec.itemsDescription) } as Record<
      List,
      z.ZodArray<Item>
    >;
    return z.object({ ...items, ...searchSummaryFields() });
  });
  type Input = ReturnType<typeof input>;
  type Output = ReturnType<typeof output>;
  const definition: StepDefinition<Input, Output, typeof contactData, Id> = {
    id: spec.id,
    integration: contactData,
    title: spec.title,
    description: spec.description,
    agentDescription: spec.agentDescription,
    keywords: spec.keywords,
    get input() {
      return input();
    },
    get output() {
      return output();
    },
    access: 'read',
    idempotent: false,
    credits: searchCredits,
    variables: spec.variables,
    examples: spec.examples,
    // Closed lists depend on no other field, so they fit any input's options map.
    options: filterOptions(spec.filters) as StepDefinition<Input, Output>['options'],
    async run(given, context) {
      const filters = Object.fromEntries(spec.filters.map((name) => [wireFilterNames()[name], given[name]]));
      const request = { path: spec.path, filters, limit: given.limit };
      const { items, summary } = await searchPage(context, request, spec.wireItem(), spec.fromWire);
      return { [spec.list]: items, ...summary } as ReturnedValue<Output>;
    },
  };
  return definition;
}

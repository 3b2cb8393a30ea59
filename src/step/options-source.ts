import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { PublicConnection } from '../model/connection.js';
import type { Logger } from '../model/logger.js';
import { builtOnce } from '../values/built-once.js';

/**
 * Most choices one options call returns. A resolver asks the provider for at
 * most this many (it is `context.limit`); anything it returns beyond is cut,
 * and the answer says `truncated`, so a hostile or careless provider cannot
 * make a dropdown (or an agent's context) unbounded.
 */
export const MAX_OPTION_ITEMS = 100;

/** How long an options answer is reused for the same tenant, connection, field, query, cursor and input. */
export const OPTIONS_CACHE_TTL_MS = 60_000;

// Labels and descriptions are cut, not refused: a long name at the provider is still a valid choice.
const cut = (most: number) =>
  z.string().transform((text) => (text.length > most ? text.slice(0, most) : text));

/** One choice: the value the field takes, what a person reads, and an optional line beside it. */
export const OptionItem = builtOnce(() =>
  z.object({
    value: z
      .union([z.string(), z.number(), z.boolean()])
      .describe('What the field takes when this is chosen.'),
    label: cut(200).describe('What a person reads in the dropdown.'),
    description: cut(500).optional().describe('A line beside the label: an email, a role, a status.'),
  }),
);
export type OptionItem = z.output<ReturnType<typeof OptionItem>>;

/** What a resolver returns, and what every surface answers. */
export const OptionsPage = builtOnce(() =>
  z.object({
    items: z.array(OptionItem()).describe(`The choices, at most ${MAX_OPTION_ITEMS}.`),
    next_cursor: z
      .string()
      .max(2000)
      .optional()
      .describe('Pass back as `cursor` for the next choices; absent on the last page.'),
  }),
);
export type OptionsPage = z.input<ReturnType<typeof OptionsPage>>;

/** What a resolver is asked: an optional search, a cursor from an earlier page, and the input filled so far. */
export interface OptionsRequest<Input = Record<string, unknown>> {
  query?: string | undefined;
  cursor?: string | undefined;
  /** The fields the source declares in `dependsOn`, as the caller has filled them (others are left out). */
  input: Partial<Input>;
}

/** What a resolver may use: the bound connection's HTTP client (same pipeline as a step's), and the cap. */
export interface OptionsContext {
  http: HttpClient;
  connection: PublicConnection;
  signal: AbortSignal | undefined;
  log: Logger;
  /** Ask the provider for at most this many choices (MAX_OPTION_ITEMS). */
  limit: number;
  /** The embedder's limits for the step (e.g. `{ projects: [...] }`): offer nothing the step would refuse. */
  constraints: Readonly<Record<string, readonly string[]>>;
}

/** Where a field's choices come from; declared on a step in its `options` map. */
export interface OptionsSource<Input = Record<string, unknown>> {
  /** Input fields the choices depend on (a project's deployments): part of the cache key, handed to `load`. */
  dependsOn?: readonly (keyof Input & string)[];
  /** True when `query` narrows the choices at the provider (a user search); false lists are filtered here. */
  searchable?: boolean;
  /** A closed list known without asking the provider: no connection, no request. */
  fixed?: readonly OptionItem[];
  /** Fetches one page of choices through the step's connection; the runtime caches it and applies `constraints`. */
  load(request: OptionsRequest<Input>, context: OptionsContext): Promise<OptionsPage>;
}

/** A step's options map: input field name to where its choices come from. */
export type StepOptions<Input> = { readonly [Field in keyof Input & string]?: OptionsSource<Input> };

/** The choices whose label or value contains the query, case-insensitive; all of them without one. */
export function matchingItems(items: readonly OptionItem[], query: string | undefined): OptionItem[] {
  const wanted = query?.trim().toLowerCase();
  if (!wanted) return [...items];
  return items.filter(
    (item) => item.label.toLowerCase().includes(wanted) || String(item.value).toLowerCase().includes(wanted),
  );
}

/**
 * A closed list of choices (a provider's seniority levels, its countries):
 * answered without a connection or a request, searched by label and value,
 * paged by an offset cursor like any other source.
 */
export function fixedOptions<Input = Record<string, unknown>>(
  items: readonly { value: string | number | boolean; label: string; description?: string }[],
): OptionsSource<Input> {
  // Checked on first read, not where the list is declared: a catalogue declares its lists at import (issue 37).
  const fixed = builtOnce(() => items.map((item) => OptionItem().parse(item)));
  return {
    get fixed() {
      return fixed();
    },
    searchable: true,
    load: async (request) => pageOfFixed(fixed(), request),
  };
}

/** One page of a closed list: matched by the query, paged by an offset cursor. */
export function pageOfFixed(
  fixed: readonly OptionItem[],
  request: Pick<OptionsRequest, 'query' | 'cursor'>,
): { items: OptionItem[]; next_cursor?: string } {
  const matched = matchingItems(fixed, request.query);
  const start = Math.max(0, Number.parseInt(request.cursor ?? '0', 10) || 0);
  const end = start + MAX_OPTION_ITEMS;
  return {
    items: matched.slice(start, end),
    ...(end < matched.length ? { next_cursor: String(end) } : {}),
  };
}

/** Several fixed values by the same label: a list of words the provider takes as they are. */
export function wordOptions<Input = Record<string, unknown>>(words: readonly string[]): OptionsSource<Input> {
  return fixedOptions<Input>(words.map((word) => ({ value: word, label: word })));
}

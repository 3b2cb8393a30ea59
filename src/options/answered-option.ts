import * as z from 'zod';
import { builtOnce } from '../values/built-once.js';

/**
 * One choice as the surfaces answer it (the MCP server's list_options, the
 * builder API's options route): the resolver's OptionItem after its label
 * and description were cut to size, so plain strings here, which JSON Schema
 * can state as an output.
 */
export const AnsweredOption = builtOnce(() =>
  z.object({
    value: z.union([z.string(), z.number(), z.boolean()]),
    label: z.string(),
    description: z.string().optional(),
  }),
);

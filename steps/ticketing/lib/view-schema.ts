import * as z from 'zod';
import { builtOnce, NumericId } from '../../../src/kit/index.js';

export const ViewId = builtOnce(() => NumericId().describe('The numeric view id, as List Views returns it.'));

const Condition = builtOnce(() =>
  z.looseObject({
    field: z.string().describe('The ticket property, e.g. status or group_id.'),
    operator: z.string().describe('is, is_not, less_than, greater_than, includes...'),
    value: z.unknown().describe('What the property is compared with.'),
  }),
);

/** A view (ViewObject): a saved ticket filter agents work from. */
export const View = builtOnce(() =>
  z.object({
    id: z.number().describe('View id.'),
    title: z.string().describe('Title agents see.'),
    description: z.string().nullable().optional().describe('What the view shows.'),
    active: z.boolean().optional().describe('False when the view is switched off.'),
    default: z.boolean().optional().describe('True for a view the provider ships.'),
    position: z.number().optional().describe('Order in the views list.'),
    conditions: z
      .object({ all: z.array(Condition()).default([]), any: z.array(Condition()).default([]) })
      .optional()
      .describe('Tickets match every condition in all and, when any is not empty, one of any.'),
    created_at: z.string().optional().describe('ISO 8601 creation time.'),
    updated_at: z.string().optional().describe('ISO 8601 last update time.'),
  }),
);

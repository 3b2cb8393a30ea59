import * as z from 'zod';

/** A note as the provider answers it, and as the steps return it. */
export const Note = z.object({
  id: z.string().describe('The note id, e.g. n_42.'),
  notebook: z.string().describe('The id of the notebook it is in.'),
  title: z.string(),
  body: z.string(),
  created_at: z.string().describe('ISO 8601.'),
});
export type Note = z.output<typeof Note>;

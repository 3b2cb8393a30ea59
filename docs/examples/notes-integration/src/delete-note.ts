import { defineStep, PathSegment } from 'toolsteps/kit';
import * as z from 'zod';
import { notes } from './integration.js';

/**
 * A destructive step: agent tools and the builder ask before they call it.
 * Deleting one note is idempotent, so a lost answer is replayed, and a 404
 * on the replay means the first attempt did the work (`gone_means_done`).
 */
export const deleteNote = defineStep({
  id: 'notes.delete_note',
  integration: notes,
  title: 'Delete Note',
  description: 'Delete a note for good.',
  agentDescription:
    'Deletes one note by its id. It cannot be undone: confirm with the user first. A note already deleted is an error (not found).',
  keywords: ['delete note', 'remove note', 'erase'],
  input: z.strictObject({ note_id: PathSegment().describe('The id of the note, e.g. n_42.') }),
  output: z.object({ deleted: z.string().describe('The id of the note deleted.') }),
  access: 'destructive',
  idempotent: true,
  // Write safety: a replay answered 404 finds the note gone, which is what was asked.
  replay: { mode: 'gone_means_done', alreadyDone: (input) => ({ deleted: input.note_id }) },
  variables: { deleted: '$.deleted' },
  examples: [{ title: 'Delete the welcome note', input: { note_id: 'n_1' } }],
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: `/v1/notes/${encodeURIComponent(input.note_id)}` });
    return { deleted: input.note_id };
  },
});

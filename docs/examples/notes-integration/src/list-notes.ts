import { cursorPageOutput, defineStep, PathSegment, readAnswer } from 'toolsteps/kit';
import * as z from 'zod';
import { notes } from './integration.js';
import { Note } from './note.js';
import { notebookOptions } from './notebook-options.js';

/** One page as the provider answers `GET /v1/notes`: the notes, and the cursor of the next page (null on the last). */
const NotesPage = z.object({ notes: z.array(Note), next: z.string().nullable() });

/** A paged list: one page per call, in the shape every paged step of toolsteps shares. */
export const listNotes = defineStep({
  id: 'notes.list_notes',
  integration: notes,
  title: 'List Notes',
  description: 'List the notes of the workspace, or of one notebook, oldest first, a page at a time.',
  agentDescription:
    'Lists notes one page at a time. Pass the returned next_cursor back as cursor (with the same notebook) to get the next page; has_more says whether there is one. Free, changes nothing.',
  keywords: ['notes', 'list', 'browse', 'notebook'],
  input: z.strictObject({
    notebook: PathSegment().optional().describe('Only the notes of this notebook (its id); omit for all.'),
    limit: z.number().int().min(1).max(50).default(20).describe('Notes per page, 1 to 50.'),
    cursor: z.string().min(1).max(200).optional().describe('next_cursor from the previous page.'),
  }),
  output: cursorPageOutput('notes', Note, { items: 'This page of notes.' }),
  access: 'read',
  idempotent: true,
  variables: { note_ids: '$.notes[*].id', next_cursor: '$.next_cursor' },
  options: { notebook: notebookOptions },
  examples: [{ title: 'The first ten notes', input: { limit: 10 } }],
  async run(input, { http }) {
    const path = '/v1/notes';
    const query = { notebook: input.notebook, limit: input.limit, after: input.cursor };
    const response = await http.request({ method: 'GET', path, query });
    const page = readAnswer(NotesPage, response.body, `GET ${path}`);
    return { notes: page.notes, has_more: page.next !== null, next_cursor: page.next };
  },
});

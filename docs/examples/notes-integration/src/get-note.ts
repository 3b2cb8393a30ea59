import { defineStep, PathSegment, readAnswer } from 'toolsteps/kit';
import * as z from 'zod';
import { notes } from './integration.js';
import { Note } from './note.js';

/** What the provider answers, read as untrusted input. */
const NoteAnswer = z.object({ note: Note });

/** A read: free, changes nothing, safe to retry. */
export const getNote = defineStep({
  id: 'notes.get_note',
  integration: notes,
  title: 'Get Note',
  description: 'Read one note: its title, body and notebook.',
  agentDescription:
    'Reads one note by its id (from a URL such as https://acme.notes.example/n/<id>). Free, changes nothing.',
  keywords: ['read note', 'note', 'document'],
  input: z.strictObject({
    // One path segment: an id can never become `..` or a second segment.
    note_id: PathSegment().describe('The id of the note, e.g. n_42.'),
  }),
  output: z.object({ note: Note }),
  access: 'read',
  idempotent: true,
  variables: { title: '$.note.title', body: '$.note.body' },
  examples: [{ title: 'The welcome note', input: { note_id: 'n_1' } }],
  async run(input, ctx) {
    const path = `/v1/notes/${encodeURIComponent(input.note_id)}`;
    const response = await ctx.http.request({ method: 'GET', path });
    // An answer that does not fit is an OutputError naming `GET <path>` and the failing fields.
    return readAnswer(NoteAnswer, response.body, `GET ${path}`);
  },
});

import { defineStep, type HttpClient, PathSegment, readAnswer } from 'toolsteps/kit';
import * as z from 'zod';
import { notes } from './integration.js';
import { Note } from './note.js';
import { notebookOptions } from './notebook-options.js';

const Created = z.object({ note: Note });
const Found = z.object({ notes: z.array(Note) });

/**
 * The note a create with this notebook and title made, if there is one: how
 * a create whose answer was lost is found again. The provider takes no
 * idempotency key, so the title within its notebook is the marker.
 */
async function findNote(http: HttpClient, notebook: string, title: string): Promise<Note | undefined> {
  const path = '/v1/notes';
  const response = await http.request({ method: 'GET', path, query: { notebook, title, limit: 1 } });
  return readAnswer(Found, response.body, `GET ${path}`).notes[0];
}

/**
 * A write that is not idempotent (each POST makes another note), with write
 * safety: when the create may have landed but its answer was lost, the
 * runtime never sends it again on its own; it asks `replay.find` to look, and a
 * note found is the step's output. The notebook's choices come from the account.
 */
export const createNote = defineStep({
  id: 'notes.create_note',
  integration: notes,
  title: 'Create Note',
  description: 'Create a note in a notebook.',
  agentDescription:
    'Creates one note in a notebook (pick its id from the notebook options). Not idempotent: calling twice makes two notes; after an unknown outcome, look with List Notes first.',
  keywords: ['new note', 'write note', 'create', 'document'],
  input: z.strictObject({
    notebook: PathSegment().describe('The id of the notebook, e.g. nb_work.'),
    title: z.string().min(1).max(200),
    body: z.string().max(20_000).default(''),
  }),
  output: z.object({ note: Note }),
  access: 'write',
  idempotent: false,
  // Write safety: what a create that may have landed means (docs/library.md#write-safety).
  replay: {
    mode: 'reconcile',
    async find(input, { http }) {
      const note = await findNote(http, input.notebook, input.title);
      return note && { note };
    },
    hint: (input) => `Look for a note titled "${input.title}" in notebook ${input.notebook} first.`,
  },
  variables: { note_id: '$.note.id' },
  options: { notebook: notebookOptions },
  examples: [{ title: 'A note in the work notebook', input: { notebook: 'nb_work', title: 'Standup' } }],
  async run(input, { http }) {
    const path = '/v1/notes';
    const response = await http.request({ method: 'POST', path, body: input });
    return readAnswer(Created, response.body, `POST ${path}`);
  },
});

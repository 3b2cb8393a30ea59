import { Registry } from 'toolsteps/kit';
import { notesApiCall } from './api-call.js';
import { createNote } from './create-note.js';
import { deleteNote } from './delete-note.js';
import { getNote } from './get-note.js';
import { notes } from './integration.js';
import { listNotes } from './list-notes.js';
import { noteCreated } from './note-created.js';
import { notebookOptions } from './notebook-options.js';
import { notesSignature } from './webhook-signature.js';

export {
  createNote,
  deleteNote,
  getNote,
  listNotes,
  notebookOptions,
  noteCreated,
  notes,
  notesApiCall,
  notesSignature,
};

/** The steps this package offers: the registry's type, so `invoke` is typed by step id and input. */
export type NotesStep =
  | typeof getNote
  | typeof listNotes
  | typeof createNote
  | typeof deleteNote
  | typeof notesApiCall;

/** A registry of the integration, its steps and its trigger, for a Runtime, an MCP server or agent tools. */
export function createNotesRegistry() {
  return new Registry<NotesStep>()
    .registerIntegration(notes)
    .registerStep(getNote)
    .registerStep(listNotes)
    .registerStep(createNote)
    .registerStep(deleteNote)
    .registerStep(notesApiCall)
    .registerTrigger(noteCreated);
}

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

/**
 * A registry of the integration, its steps and its trigger, for a Runtime, an
 * MCP server or agent tools. Typed from what it holds: `invoke`, `options`
 * and `describe` take only these step ids (and `options` only the fields
 * with choices), and subscriptions only this trigger's id.
 */
export function createNotesRegistry() {
  return Registry.from({
    integrations: [notes],
    steps: [getNote, listNotes, createNote, deleteNote, notesApiCall],
    triggers: [noteCreated],
  });
}

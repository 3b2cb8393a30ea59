import { type OptionsSource, readAnswer } from 'toolsteps/kit';
import * as z from 'zod';

/** One page of the account's notebooks, as the provider answers `GET /v1/notebooks`. */
const NotebookPage = z.object({
  notebooks: z.array(z.object({ id: z.string(), name: z.string(), owner: z.string() })),
  next: z.string().nullable(),
});

/**
 * The account's notebooks, for a field that takes a notebook id: searched by
 * name at the provider, paged by its cursor, at most `limit` a page. Any step
 * whose input has a `notebook` field can offer it (`options: { notebook: notebookOptions }`).
 */
export const notebookOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit }) {
    const path = '/v1/notebooks';
    const answer = await http.request({ method: 'GET', path, query: { q: query, after: cursor, limit } });
    // Read like any step's answer: a stray shape is an OutputError, never an empty dropdown.
    const page = readAnswer(NotebookPage, answer.body, `GET ${path}`);
    return {
      items: page.notebooks.map((book) => ({ value: book.id, label: book.name, description: book.owner })),
      ...(page.next ? { next_cursor: page.next } : {}),
    };
  },
};

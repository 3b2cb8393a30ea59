import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { OutputError } from '../../src/errors/index.js';
import { readAnswer } from '../../src/step/read-answer.js';

const Note = z.object({ note: z.object({ id: z.string(), title: z.string() }) });

function failure(read: () => unknown): OutputError {
  try {
    read();
  } catch (error) {
    if (error instanceof OutputError) return error;
    throw error;
  }
  throw new Error('expected an OutputError');
}

describe('readAnswer', () => {
  it('hands back what the schema reads', () => {
    expect(readAnswer(Note, { note: { id: 'n1', title: 'Hello', extra: 1 } }, 'GET /v1/notes/n1')).toEqual({
      note: { id: 'n1', title: 'Hello' },
    });
  });

  it('fails with an OutputError naming the request and each field under answer.', () => {
    const error = failure(() => readAnswer(Note, { note: { id: 7 } }, 'GET /v1/notes/n1'));
    expect(error).toMatchObject({ code: 'output_invalid', retryable: false });
    expect(error.fields.map((field) => field.path)).toEqual(['answer.note.id', 'answer.note.title']);
    expect(error.message).toMatch(
      /^GET \/v1\/notes\/n1 answered in a shape this step cannot read: answer\.note\.id: /,
    );
  });

  it('names the part read and what it should have been, when the reader says', () => {
    const error = failure(() =>
      readAnswer(Note.shape.note, { id: 'n1' }, 'The provider', { at: 'notes.3', expected: 'a note' }),
    );
    expect(error.fields).toEqual([{ path: 'notes.3.title', message: expect.any(String) }]);
    expect(error.message).toMatch(
      /^The provider answered with something that is not a note: notes\.3\.title: /,
    );
  });

  it('keeps the error small when the whole answer is wrong', () => {
    const error = failure(() =>
      readAnswer(
        z.array(z.string()),
        Array.from({ length: 500 }, (_, i) => i),
        'GET /x',
      ),
    );
    expect(error.fields).toHaveLength(20);
    expect(error.message).toContain('(and 495 more)');
    expect(error.message.length).toBeLessThan(400);
  });
});

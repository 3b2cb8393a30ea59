import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InputError, NotFoundError } from '../../src/errors/index.js';
import { checkRecord } from '../../src/model/check-record.js';
import { MemoryRecordStore } from '../../src/store/memory/memory-record-store.js';

const Note = z.object({ id: z.string().min(1), text: z.string(), count: z.number().int() });
type Note = z.infer<typeof Note>;
const checkNote = (value: Note) => checkRecord(Note, 'note', value);

describe('checkRecord', () => {
  it('returns the parsed record, or an InputError naming the noun and the failing fields', () => {
    expect(checkNote({ id: 'a', text: 't', count: 1 })).toEqual({ id: 'a', text: 't', count: 1 });
    const error = (() => {
      try {
        checkNote({ id: '', text: 'secret-value', count: 1.5 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/^Invalid note: id: .*; count: /);
    expect((error as InputError).message).not.toContain('secret-value');
    expect((error as InputError).fields.map((issue) => issue.path)).toEqual(['id', 'count']);
  });

  it('names the whole record when the value is not an object', () => {
    expect(() => checkNote('nope' as unknown as Note)).toThrow(
      expect.objectContaining({ fields: [expect.objectContaining({ path: '(note)' })] }),
    );
  });
});

describe('a record store built on the shared base', () => {
  const make = () => new MemoryRecordStore<Note>({ noun: 'note', check: checkNote });

  it('checks on put, and a failed check stores nothing', async () => {
    const store = make();
    await expect(store.put({ id: 'a', text: 't', count: 0.5 })).rejects.toBeInstanceOf(InputError);
    expect(await store.list()).toEqual([]);
  });

  it('runs concurrent updates of one record one after another, so none is lost', async () => {
    const store = make();
    await store.put({ id: 'a', text: 't', count: 0 });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.update('a', (current) => ({ ...current, count: current.count + 1 })),
      ),
    );
    expect((await store.get('a'))?.count).toBe(20);
  });

  it('refuses to update a missing record with a NotFoundError naming its kind, and a bad change keeps the old record', async () => {
    const store = make();
    await expect(store.update('missing', (current) => current)).rejects.toThrow(
      new NotFoundError('No note with id "missing".'),
    );
    await store.put({ id: 'a', text: 't', count: 1 });
    await expect(store.update('a', (current) => ({ ...current, count: 1.5 }))).rejects.toBeInstanceOf(
      InputError,
    );
    expect(await store.get('a')).toEqual({ id: 'a', text: 't', count: 1 });
  });

  it('hands out copies, and says whether remove found the record', async () => {
    const store = make();
    await store.put({ id: 'a', text: 't', count: 1 });
    const held = await store.get('a');
    held!.text = 'changed outside';
    expect((await store.get('a'))?.text).toBe('t');
    expect(await store.remove('a')).toBe(true);
    expect(await store.remove('a')).toBe(false);
  });
});

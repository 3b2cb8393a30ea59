import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { cursorPageOutput } from '../../src/step/cursor-page.js';

const Page = cursorPageOutput('widgets', z.object({ id: z.string() }), {
  items: 'This page of widgets.',
  cursor: 'Pass as cursor for the next page; null on the last page.',
});

describe('cursorPageOutput', () => {
  it('puts the items under the given key beside has_more and next_cursor', () => {
    const page = Page.parse({ widgets: [{ id: 'w1' }], has_more: true, next_cursor: 'c2' });
    expect(page.widgets).toEqual([{ id: 'w1' }]);
    expect(page).toMatchObject({ has_more: true, next_cursor: 'c2' });
  });

  it('takes a null cursor on the last page and refuses a missing one', () => {
    expect(Page.safeParse({ widgets: [], has_more: false, next_cursor: null }).success).toBe(true);
    expect(Page.safeParse({ widgets: [], has_more: false }).success).toBe(false);
  });

  it('carries the words it is given into the schema', () => {
    const schema = z.toJSONSchema(Page) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(schema.properties)).toEqual(['widgets', 'has_more', 'next_cursor']);
    expect(schema.properties.widgets?.description).toBe('This page of widgets.');
    expect(schema.properties.next_cursor?.description).toBe(
      'Pass as cursor for the next page; null on the last page.',
    );
  });
});

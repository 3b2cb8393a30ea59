import { describe, expect, it } from 'vitest';
import { flipFault, resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/** Add Comment and List Comments against the sandbox. */
describe('ticketing comments', () => {
  const fx = useFixture(ticketingFixture);
  const puts = () => fx.requests('ticketing').filter((entry) => entry.method === 'PUT');

  it('add_comment posts an internal note through the ticket update, as the provider description has it', async () => {
    const { output } = await fx.invoke('ticketing.add_comment', {
      ticket_id: 1,
      body: 'Customer is on the legacy SSO plan.',
      visibility: 'internal',
    });
    expect(output).toMatchObject({ public: false, ticket: { id: 1 } });
    expect(output.comment_id).toEqual(expect.any(Number));
    const [put] = puts();
    expect(put?.path).toBe('/acme/api/v2/tickets/1.json');
    expect(JSON.parse(put?.rawBody ?? '')).toEqual({
      ticket: { comment: { body: 'Customer is on the legacy SSO plan.', public: false } },
    });
  });

  it('add_comment posts as another author with files, and an unknown author is refused by the provider', async () => {
    const upload = await fx.invoke('ticketing.upload_attachment', {
      file_name: 'log.txt',
      content_type: 'text/plain',
      content_base64: Buffer.from('line 1\n').toString('base64'),
    });
    await fx.invoke('ticketing.add_comment', {
      ticket_id: 1,
      body: 'Here is the log.',
      visibility: 'public',
      author_id: 3,
      upload_tokens: [upload.output.token],
    });
    const { output } = await fx.invoke('ticketing.list_comments', {
      ticket_id: 1,
      newest_first: true,
      limit: 1,
    });
    expect(output.comments[0]).toMatchObject({
      author_id: 3,
      public: true,
      attachments: [{ file_name: 'log.txt', content_type: 'text/plain', size: 7 }],
    });
    await expect(
      fx.invoke('ticketing.add_comment', { ticket_id: 1, body: 'x', visibility: 'public', author_id: 999 }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('add_comment requires a visibility: nothing is sent without one', async () => {
    await expect(
      fx.invokeUnchecked('ticketing.add_comment', { ticket_id: 1, body: 'Hi' }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'visibility' })],
    });
    expect(fx.requests('ticketing')).toEqual([]);
  });

  it('add_comment whose answer is lost is not sent again: one comment, and an unknown outcome that says what to check', async () => {
    await flipFault(
      fx.sandbox,
      resetOnce({ target: 'ticketing', method: 'PUT', pathIncludes: '/tickets/1' }),
    );
    const error = await fx
      .invoke('ticketing.add_comment', { ticket_id: 1, body: 'Only once.', visibility: 'public' })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ outcome: 'unknown', retryable: false });
    expect((error as Error).message).toContain('List Comments with newest_first');
    expect(puts()).toHaveLength(1);
    const bodies = fx.sandbox.ticketing
      .account('acme')
      .tickets.get(1)
      ?.comments.map((comment) => comment.body);
    expect(bodies?.filter((body) => body === 'Only once.')).toHaveLength(1);
  });

  it('list_comments: public only or internal only, oldest or newest first, cursor paged', async () => {
    for (const [body, visibility] of [
      ['note 1', 'internal'],
      ['reply 1', 'public'],
      ['note 2', 'internal'],
      ['reply 2', 'public'],
    ] as const) {
      fx.clock.advance(1000);
      await fx.invoke('ticketing.add_comment', { ticket_id: 2, body, visibility });
    }
    const internal = await fx.invoke('ticketing.list_comments', { ticket_id: 2, visibility: 'internal' });
    expect(internal.output.comments.map((comment) => comment.body)).toEqual(['note 1', 'note 2']);
    const newest = await fx.invoke('ticketing.list_comments', {
      ticket_id: 2,
      visibility: 'public',
      newest_first: true,
      limit: 1,
    });
    expect(newest.output.comments.map((comment) => comment.body)).toEqual(['reply 2']);
    expect(newest.output.has_more).toBe(true);
    const next = await fx.invoke('ticketing.list_comments', {
      ticket_id: 2,
      visibility: 'public',
      newest_first: true,
      limit: 1,
      cursor: newest.output.next_cursor!,
    });
    // The page after reply 2 holds note 2 only; the step reads on to the next page with a reply.
    expect(next.output.comments.map((comment) => comment.body)).toEqual(['reply 1']);
    const all = await fx.invoke('ticketing.list_comments', { ticket_id: 2 });
    expect(all.output.comments).toHaveLength(5);
    expect(fx.requests('ticketing').some((entry) => entry.path.includes('sort=-created_at'))).toBe(true);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

/** Every byte value, so a text decoding anywhere on the way would show. */
const PNG = Buffer.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...Array.from({ length: 256 }, (_, i) => i),
]);
const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1');

let dir: string;
let fx: TicketingFixture;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-uploads-'));
  await writeFile(path.join(dir, 'crash.png'), PNG);
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(async () => {
  fx = await ticketingFixture();
});
afterEach(() => fx.close());

interface Upload {
  token: string;
  attachments: { id: number; file_name: string; content_url: string; content_type: string; size: number }[];
}

async function uploadFile(input: Record<string, unknown>): Promise<Upload> {
  const { output } = await fx.invokeUnchecked('ticketing.api_call', { method: 'POST', ...input });
  const answer = output as { status: number; body: { upload: Upload } };
  expect(answer.status).toBe(201);
  return answer.body.upload;
}

describe('ticketing attachments through the API Call step', () => {
  it('uploads a file from disk and one from base64 under one token, attaches both to a new ticket, and reads them back as base64', async () => {
    const first = await uploadFile({
      endpoint: '/api/v2/uploads.json?filename=crash.png',
      body_file: path.join(dir, 'crash.png'),
      content_type: 'image/png',
    });
    const second = await uploadFile({
      endpoint: `/api/v2/uploads.json?filename=report.pdf&token=${first.token}`,
      body_base64: PDF.toString('base64'),
      content_type: 'application/pdf',
    });
    expect(second.token).toBe(first.token);
    expect(second.attachments.map((file) => [file.file_name, file.content_type, file.size])).toEqual([
      ['crash.png', 'image/png', PNG.byteLength],
      ['report.pdf', 'application/pdf', PDF.byteLength],
    ]);
    // What crossed the wire: the raw bytes with the file's media type.
    const sent = fx.sandbox.server.requestLog.filter((entry) => entry.path.includes('/api/v2/uploads'));
    expect(sent.map((entry) => entry.headers['content-type'])).toEqual(['image/png', 'application/pdf']);

    const created = await fx.invoke('ticketing.create_ticket', {
      subject: 'App crashes on start',
      description: 'Screenshot and report attached.',
      upload_tokens: [first.token],
    });
    const comments = await fx.invokeUnchecked('ticketing.api_call', {
      method: 'GET',
      endpoint: `/api/v2/tickets/${created.output.ticket.id}/comments.json`,
    });
    const [description] = (
      comments.output as { body: { comments: { attachments: Upload['attachments'] }[] } }
    ).body.comments;
    expect(description?.attachments.map((file) => file.file_name)).toEqual(['crash.png', 'report.pdf']);

    const contentUrl = new URL(description!.attachments[0]!.content_url);
    const base = new URL(fx.connection.fields.baseUrl as string);
    const download = await fx.invokeUnchecked('ticketing.api_call', {
      method: 'GET',
      endpoint: `${contentUrl.pathname.slice(base.pathname.length)}${contentUrl.search}`,
    });
    const body = (download.output as { body: { base64: string; content_type: string; bytes: number } }).body;
    expect(body).toEqual({
      base64: PNG.toString('base64'),
      content_type: 'image/png',
      bytes: PNG.byteLength,
    });
  });

  it('update_ticket attaches upload tokens to its public comment; a token is spent once', async () => {
    const upload = await uploadFile({
      endpoint: '/api/v2/uploads.json?filename=log.txt',
      body_base64: Buffer.from('line 1\nline 2\n').toString('base64'),
      content_type: 'text/plain',
    });
    await fx.invoke('ticketing.update_ticket', {
      ticket_id: 1,
      public_comment: 'Here is the log.',
      upload_tokens: [upload.token],
    });
    const ticket = fx.sandbox.ticketing.account('acme').tickets.get(1)!;
    expect(ticket.comments.at(-1)).toMatchObject({ body: 'Here is the log.', public: true });
    expect(ticket.comments.at(-1)?.attachments.map((file) => file.file_name)).toEqual(['log.txt']);
    await expect(
      fx.invoke('ticketing.update_ticket', {
        ticket_id: 1,
        internal_note: 'Again',
        upload_tokens: [upload.token],
      }),
    ).rejects.toMatchObject({ code: 'provider_rejected', status: 422 });
  });

  it('refuses before sending: a missing file, a directory, a file without its type, two bodies, a file on GET, tokens without a comment', async () => {
    const before = fx.sandbox.server.requestLog.length;
    const refusals: [Record<string, unknown>, string][] = [
      [
        {
          method: 'POST',
          endpoint: '/api/v2/uploads.json?filename=x',
          body_file: path.join(dir, 'nope.png'),
          content_type: 'image/png',
        },
        'body_file',
      ],
      [
        {
          method: 'POST',
          endpoint: '/api/v2/uploads.json?filename=x',
          body_file: dir,
          content_type: 'image/png',
        },
        'body_file',
      ],
      [{ method: 'POST', endpoint: '/api/v2/uploads.json?filename=x', body_base64: 'aGk=' }, 'content_type'],
      [
        {
          method: 'POST',
          endpoint: '/api/v2/uploads.json?filename=x',
          body_base64: 'aGk=',
          body: {},
          content_type: 'image/png',
        },
        'body_base64',
      ],
      [
        {
          method: 'GET',
          endpoint: '/api/v2/uploads.json?filename=x',
          body_base64: 'aGk=',
          content_type: 'image/png',
        },
        'body_base64',
      ],
      [
        {
          method: 'POST',
          endpoint: '/api/v2/uploads.json?filename=x',
          body_base64: 'not base64!',
          content_type: 'image/png',
        },
        'body_base64',
      ],
    ];
    for (const [input, field] of refusals) {
      await expect(fx.invokeUnchecked('ticketing.api_call', input), field).rejects.toMatchObject({
        code: 'input_invalid',
        fields: expect.arrayContaining([expect.objectContaining({ path: field })]),
      });
    }
    await expect(
      fx.invokeUnchecked('ticketing.update_ticket', { ticket_id: 1, status: 'open', upload_tokens: ['abc'] }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    expect(fx.sandbox.server.requestLog.length).toBe(before);
  });

  it('only the ticketing API Call takes files: the others refuse the fields', async () => {
    const registry = fx.registry;
    for (const id of ['deployments.api_call', 'contact_data.api_call', 'anz_data.api_call']) {
      const input = registry.requireStep(id).input.safeParse({
        method: 'POST',
        [id.startsWith('deployments') ? 'path' : 'endpoint']: '/x',
        body_base64: 'aGk=',
        content_type: 'image/png',
      });
      expect(input.success, id).toBe(false);
    }
  });
});

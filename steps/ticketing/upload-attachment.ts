import * as z from 'zod';
import { builtOnce, defineStep, OutputError, type StepContext } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { Attachment } from './lib/comment-schema.js';
import { ticketingPath } from './lib/paths.js';
import { readMember } from './lib/read-member.js';
import { UploadTokens } from './lib/ticket-schema.js';
import {
  allowedOrigin,
  MAX_ATTACHMENT_BYTES,
  readAllowedFile,
  refuseSource,
  UPLOAD_DIRS,
  UPLOAD_ORIGINS,
} from './lib/upload-source.js';

const SOURCES = ['file_path', 'url', 'content_base64'] as const;

const UploadInput = builtOnce(() =>
  z
    .strictObject({
      file_name: z
        .string()
        .regex(/^[^/\\\u0000-\u001f]{1,255}$/, 'a file name without slashes or control characters')
        .describe('The name agents see, with the extension of the file, e.g. crash.png.'),
      content_type: z
        .string()
        .regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'a media type such as image/png')
        .max(100)
        .describe('Media type of the file, e.g. image/png or application/pdf.'),
      file_path: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe(`A local file, inside a directory the caller allowed (constraints.${UPLOAD_DIRS}).`),
      url: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe(
          `A file on the web, on an origin the caller allowed (constraints.${UPLOAD_ORIGINS}); redirects stay on allowed origins.`,
        ),
      content_base64: z
        .base64()
        .max(Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4)
        .optional()
        .describe('The file itself, base64-encoded.'),
      token: UploadTokens()
        .element.optional()
        .describe(
          'A token from an earlier Upload Attachment: adds this file to that upload (one token, many files).',
        ),
    })
    .refine((value) => SOURCES.filter((source) => value[source] !== undefined).length === 1, {
      message: `give exactly one source: ${SOURCES.join(' or ')}`,
      path: ['file_path'],
    }),
);
type UploadInput = z.output<ReturnType<typeof UploadInput>>;

const Upload = builtOnce(() =>
  z.object({
    token: z.string(),
    expires_at: z.string().nullable().optional(),
    attachment: Attachment().optional(),
    attachments: z.array(Attachment()).default([]),
  }),
);

export default defineStep({
  id: 'ticketing.upload_attachment',
  integration: ticketing,
  title: 'Upload Attachment',
  description:
    'Upload a file (from a local path, a URL or base64) and get the token that attaches it to a comment.',
  agentDescription:
    'First half of attaching a file: uploads it and returns a token; pass the token as upload_tokens to Add Comment, Create Ticket or Update Ticket within 60 minutes. One source: file_path (only inside directories the embedder allowed), url (only on origins the embedder allowed) or content_base64. At most 50 MB. Give token to add more files to one upload. Not retried after an ambiguous failure (with token, the file could be added twice).',
  keywords: ['attach', 'attachment', 'upload', 'file', 'screenshot', 'document', 'image'],
  get input() {
    return UploadInput();
  },
  get output() {
    return z.object({
      token: z.string().describe('Pass in upload_tokens of a comment; valid for 60 minutes.'),
      expires_at: z.string().nullable().describe('When the token expires, when the provider says.'),
      attachment: Attachment().describe('The file just uploaded.'),
      attachments: z.array(Attachment()).describe('Every file under this token so far.'),
    });
  },
  access: 'write',
  idempotent: false,
  replay: {
    mode: 'refuse',
    hint: (input) =>
      input.token
        ? 'The file may have been added to the upload already; upload it under a new token (without token) rather than risk attaching it twice.'
        : 'Upload it again: an upload whose token is never used expires unattached after 60 minutes.',
  },
  variables: { token: '$.token', attachment_id: '$.attachment.id' },
  examples: [
    {
      title: 'A small text file from base64',
      input: { file_name: 'note.txt', content_type: 'text/plain', content_base64: 'aGVsbG8=' },
    },
  ],
  async run(input, context) {
    const bytes = await fileBytes(input, context);
    const path = ticketingPath('uploads');
    const response = await context.http.request({
      method: 'POST',
      path,
      // The provider's Upload Files: the name in `filename`, a second file under the first one's `token`.
      query: { filename: input.file_name, token: input.token },
      rawBody: { bytes, contentType: input.content_type },
    });
    const upload = readMember(response.body, 'upload', Upload(), `POST ${path}`);
    const attachment = upload.attachment ?? upload.attachments.at(-1);
    if (!attachment) throw new OutputError(`POST ${path} answered an upload without its attachment.`);
    return {
      token: upload.token,
      expires_at: upload.expires_at ?? null,
      attachment,
      attachments: upload.attachments.length ? upload.attachments : [attachment],
    };
  },
});

/** The file's bytes from its one source, at most the provider's limit; a refused source sends nothing. */
async function fileBytes(input: UploadInput, context: StepContext): Promise<Uint8Array> {
  if (input.file_path !== undefined) {
    return readAllowedFile(input.file_path, context.constraints[UPLOAD_DIRS] ?? [], MAX_ATTACHMENT_BYTES);
  }
  if (input.url !== undefined) {
    const origins = context.constraints[UPLOAD_ORIGINS] ?? [];
    if (!origins.length)
      throw refuseSource('url', `no origin is allowed: the caller sets constraints.${UPLOAD_ORIGINS}`);
    const fetched = await context.fetchFile(input.url, {
      allowed: allowedOrigin(origins),
      maxBytes: MAX_ATTACHMENT_BYTES,
      field: 'url',
    });
    if (!fetched.bytes.byteLength) throw refuseSource('url', 'the file is empty');
    return fetched.bytes;
  }
  const bytes = Buffer.from(input.content_base64 ?? '', 'base64');
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES)
    throw refuseSource(
      'content_base64',
      `it is larger than ${MAX_ATTACHMENT_BYTES} bytes, the provider's limit`,
    );
  if (bytes.byteLength === 0) throw refuseSource('content_base64', 'the file is empty');
  return bytes;
}
